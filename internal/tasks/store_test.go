package tasks_test

import (
	"context"
	"path/filepath"
	"testing"

	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// openStore opens a fresh database file in a temporary directory.
func openStore(t *testing.T) *tasks.Store { return testkit.OpenStore(t) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpenSetsSchemaVersionAndReopens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	s, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.SchemaVersion(ctx); got != tasks.CurrentSchemaVersion() {
		t.Fatalf("user_version = %d, want %d", got, tasks.CurrentSchemaVersion())
	}
	if _, err := s.CreateUser(ctx, "ann", "", "correct horse battery", false); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = tasks.Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	if _, err := s.UserByName(ctx, "ann"); err != nil {
		t.Fatalf("user lost after reopen: %v", err)
	}
	if res, err := s.IntegrityCheck(ctx); err != nil || res != "ok" {
		t.Fatalf("integrity_check = %q, %v", res, err)
	}
}

func TestSecretIsStable(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	a, err := s.Secret(ctx, "k", 32)
	if err != nil || len(a) != 32 {
		t.Fatalf("Secret = %d bytes, %v", len(a), err)
	}
	b, _ := s.Secret(ctx, "k", 32)
	if string(a) != string(b) {
		t.Fatal("second call returned a different secret")
	}
}
