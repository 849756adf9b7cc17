package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/tasks"
)

func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	s, err := tasks.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateUser(ctx, "ana", "", "a long enough password", false); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "copy.db")
	// The live store stays open, as a running server's would.
	if _, _, err := runCmd(t, "", nil, "backup", "--db", db, "--out", out); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(out)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("backup file: %v, mode %v", err, st.Mode().Perm())
	}
	c, err := tasks.Open(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.UserByName(ctx, "ana"); err != nil {
		t.Fatalf("copy lacks the account: %v", err)
	}
	if res := must(c.IntegrityCheck(ctx))(t); res != "ok" {
		t.Fatalf("integrity of copy: %s", res)
	}
	if _, _, err := runCmd(t, "", nil, "backup", "--db", db, "--out", out); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("overwrite: %v", err)
	}
}
