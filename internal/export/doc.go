// Package export writes a project's gold labels, raw labels and scores to
// an io.Writer as JSON Lines or CSV. Exports stream: rows are read from
// SQLite through cursors (tasks.ExportReader) and written as they come, so
// memory does not grow with the project. Every export starts by naming
// what it holds (see Header); docs/export.md describes the formats.
package export
