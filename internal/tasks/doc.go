// Package tasks is the domain of annotate: projects, documents, summaries
// and their sentences, key facts, rounds, assignments, labels and gold, and
// the SQLite store that keeps them.
//
// Store methods open their own transaction and call small (ctx, tx, ...)
// helpers; a missing row is an *Error with code ENotFound, never (nil, nil).
package tasks
