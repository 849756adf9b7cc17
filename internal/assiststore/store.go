// Package assiststore stores the assistant's runs over a project's
// summary sentences: their configuration, state and lease, the verdicts
// and arguments each sentence got, the answers cached by request, the
// work a run is given and a run's agreement with gold. It shares the
// database and its one writer with the rest of the application
// (tasks.Store), as internal/studies and internal/webhooks do, and holds
// the SQL of the assistant's tables, which the schema's migrations
// create; the agreement report reads the outputs with the rest of a
// project's data (tasks.ReportData).
package assiststore

import "annotate/internal/tasks"

// Store reads and writes the assistant's runs and outputs.
type Store struct {
	tasks *tasks.Store
}

// New returns the assistant's runs of the database behind s.
func New(s *tasks.Store) *Store { return &Store{tasks: s} }
