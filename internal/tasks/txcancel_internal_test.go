package tasks

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
)

// A request cancelled inside a write transaction gets it rolled back by
// database/sql, which then answers sql.ErrTxDone; the store reports the
// cancellation instead, so the client that went away is not logged as a
// server failure.
func TestTxCancelledMidwayIsCanceled(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "tx.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	err = s.tx(ctx, func(tx *sql.Tx) error {
		cancel()
		// Wait for database/sql to roll the transaction back.
		for {
			if _, err := tx.ExecContext(context.Background(), "SELECT 1"); errors.Is(err, sql.ErrTxDone) {
				return err
			}
		}
	})
	if !Canceled(err) {
		t.Fatalf("tx cancelled midway: %v, want a cancellation", err)
	}
}
