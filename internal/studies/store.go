// Package studies stores crowd studies: a study deals a round's items to
// participants who enter by a public link from a recruitment platform
// (Prolific, MTurk or any other, see internal/study for the link's
// parameters). It shares the database and its one writer with the rest
// of the application (tasks.Store) and holds the SQL of the studies'
// tables, which the schema's migrations create.
package studies

import "annotate/internal/tasks"

// Store reads and writes studies.
type Store struct {
	tasks *tasks.Store
}

// New returns the studies of the database behind s.
func New(s *tasks.Store) *Store { return &Store{tasks: s} }
