// Package annotate holds what lives at the root of the module: the database
// schema, embedded so the binary carries it.
package annotate

import _ "embed"

// Schema is the whole database schema (schema.sql), applied to a fresh
// database by the store.
//
//go:embed schema.sql
var Schema string
