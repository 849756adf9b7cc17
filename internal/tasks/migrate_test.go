package tasks_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"annotate/internal/tasks"
)

// TestMigrateFromVersionOne opens a database as the first release left it
// (schema version 1, without the sentence index) and finds it brought to
// the current version with its labels kept.
func TestMigrateFromVersionOne(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateUser(ctx, "ann", "", "correct horse battery", false); err != nil {
		t.Fatal(err)
	}
	s.Close()

	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP INDEX sentence_labels_sentence`, `DROP TABLE assignment_skips`, `DROP TABLE sentence_flags`, `PRAGMA user_version = 1`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s, err = tasks.Open(ctx, path)
	if err != nil {
		t.Fatalf("open a version 1 database: %v", err)
	}
	defer s.Close()
	if v, _ := s.SchemaVersion(ctx); v != tasks.CurrentSchemaVersion() || v < 2 {
		t.Fatalf("schema version %d after opening, want %d", v, tasks.CurrentSchemaVersion())
	}
	if _, err := s.UserByName(ctx, "ann"); err != nil {
		t.Fatalf("user lost in the migration: %v", err)
	}
	db, _ = sql.Open("sqlite", path)
	defer db.Close()
	var n int
	db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'sentence_labels_sentence'`).Scan(&n)
	if n != 1 {
		t.Fatal("the migration did not create sentence_labels_sentence")
	}
	db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('assignment_skips', 'sentence_flags')`).Scan(&n)
	if n != 2 {
		t.Fatal("the migration did not create the skip and flag tables")
	}
}
