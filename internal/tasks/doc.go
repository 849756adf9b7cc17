// Package tasks is annotate's SQLite store: it keeps the projects,
// documents, summaries and their sentences, key facts, rounds,
// assignments, labels and gold of package domain, and applies the rules
// that need what is stored (who may label what, when gold resolves, what
// an import changes), each in one transaction.
//
// Store methods open their own transaction and call small (ctx, tx, ...)
// helpers; a missing row is a *domain.Error with code ENotFound, never
// (nil, nil). Every error an exported method returns names its operation
// (domain.Op).
package tasks
