package tasks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// schemaTemplate is a new database with every migration applied, made
// once per test binary that asks for it (UseSchemaTemplateForTests) and
// copied by Open into each new database file, so that the hundreds of
// stores a test binary opens do not each run every migration (about 45 ms
// a store here, a sixth of the whole suite's time).
var schemaTemplate struct {
	on    atomic.Bool
	once  sync.Once
	image []byte
	err   error
}

// UseSchemaTemplateForTests has [Open] make each new database file (one it
// creates) a copy of one database migrated once in this process, rather
// than migrate it again. The copy is what migrating the file would leave,
// byte for byte the same schema; databases that exist are opened and
// migrated as always. It panics outside a test binary, so the shipped
// program always builds a new database by its migrations.
func UseSchemaTemplateForTests() {
	if !testing.Testing() {
		panic("tasks: UseSchemaTemplateForTests called outside a test")
	}
	schemaTemplate.on.Store(true)
}

// copySchemaTemplate writes the schema template into the new, empty
// database file at path, making the template first if need be. It does
// nothing unless UseSchemaTemplateForTests was called.
func copySchemaTemplate(ctx context.Context, path string) error {
	if !schemaTemplate.on.Load() {
		return nil
	}
	// The template outlives the call that makes it: a caller's
	// cancellation must not leave every later open failing.
	schemaTemplate.once.Do(func() {
		schemaTemplate.image, schemaTemplate.err = makeSchemaTemplate(context.WithoutCancel(ctx))
	})
	if schemaTemplate.err != nil {
		return fmt.Errorf("schema template: %w", schemaTemplate.err)
	}
	return os.WriteFile(path, schemaTemplate.image, dbFileMode)
}

// makeSchemaTemplate migrates a new database in a directory of its own,
// closes it (which folds the write-ahead log into the file) and returns
// the file's bytes.
func makeSchemaTemplate(ctx context.Context) ([]byte, error) {
	dir, err := os.MkdirTemp("", "annotate-schema-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	s, err := Open(ctx, path, func(c *openConfig) { c.template = false })
	if err != nil {
		return nil, err
	}
	if err := s.Close(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, fmt.Errorf("%s-wal left after closing", path)
	}
	return os.ReadFile(path)
}
