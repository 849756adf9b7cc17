package tasks_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"annotate/internal/tasks"
)

// Finding 5: the database, which holds password hashes and session keys,
// was created readable by every user of the host.
func TestDatabaseFilesPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "perm.db")
	s, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateUser(ctx, "ana", "", "a long enough password", false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), st.Mode().Perm())
		}
	}
	if w := s.PermissionWarning(); w != "" {
		t.Fatalf("warning for private files: %s", w)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if w := s.PermissionWarning(); !strings.Contains(w, "perm.db") || !strings.Contains(w, "chmod 600") {
		t.Fatalf("no warning for a world-readable database: %q", w)
	}
}
