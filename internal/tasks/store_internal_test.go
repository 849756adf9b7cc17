package tasks

import (
	"context"
	"path/filepath"
	"testing"
)

// openTempStore opens a store on a new database file of the test's,
// closed when the test ends.
func openTempStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
