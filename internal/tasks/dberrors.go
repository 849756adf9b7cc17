package tasks

import (
	"context"
	"errors"

	"annotate/internal/domain"

	"modernc.org/sqlite"
)

// Primary SQLite result codes this package tells apart.
const (
	sqliteBusy      = 5
	sqliteLocked    = 6
	sqliteReadOnly  = 8
	sqliteInterrupt = 9
	sqliteIOErr     = 10
	sqliteFull      = 13
)

func init() { domain.RegisterClassifier(unavailable) }

// unavailable describes a database error a user can act on, or returns
// nil for any other error.
func unavailable(err error) *domain.Error {
	switch sqliteCode(err) {
	case sqliteFull:
		return domain.Errorf(domain.EUnavailable, "The server's disk is full, so this change was not saved. Your earlier work is safe; tell the project's administrator.")
	case sqliteBusy, sqliteLocked:
		return domain.Errorf(domain.EUnavailable, "The database is busy with other work, so this change was not saved. Please try again in a moment.")
	case sqliteIOErr, sqliteReadOnly:
		return domain.Errorf(domain.EUnavailable, "The server could not write to its database, so this change was not saved. Your earlier work is safe; tell the project's administrator.")
	}
	return nil
}

// busyError reports whether err is SQLite's busy or locked error: a lock
// another connection holds.
func busyError(err error) bool {
	c := sqliteCode(err)
	return c == sqliteBusy || c == sqliteLocked
}

// sqliteCode returns the primary result code of SQLite's error in err, 0
// when err holds none.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return 0
	}
	return se.Code() & 0xff
}

// Canceled reports whether err is the end of a request whose caller went
// away (its context was cancelled, or SQLite was interrupted because of
// it): nobody is left to show an error to.
func Canceled(err error) bool {
	if errors.Is(err, context.Canceled) {
		return true
	}
	return sqliteCode(err) == sqliteInterrupt
}
