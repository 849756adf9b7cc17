// Package authn stores how people reach the server other than by their
// password: browser sessions (the cookie's token is never stored, only
// its hash) and API tokens (the same). It shares the database and its one
// writer with the rest of the application (tasks.Store), as the studies,
// webhooks and assistant stores do; an account's own changes (a new
// password, a disabled account) end its sessions and tokens inside their
// transactions in tasks.
package authn

import "annotate/internal/tasks"

// Store reads and writes sessions and API tokens.
type Store struct {
	tasks *tasks.Store
}

// New returns the sessions and tokens of the database behind s.
func New(s *tasks.Store) *Store { return &Store{tasks: s} }
