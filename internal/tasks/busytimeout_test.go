package tasks_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// TestBusyTimeoutOption: a store opened WithBusyTimeout gives up on a
// write lock held elsewhere after that time, with SQLite's busy error, rather
// than after DefaultBusyTimeout: the write's context allows it five
// seconds, half the default, so a store that kept the default would fail
// with the context's error instead. A timeout under a millisecond is
// refused before the file is made.
func TestBusyTimeoutOption(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := tasks.Open(ctx, filepath.Join(dir, "zero.db"), tasks.WithBusyTimeout(0)); err == nil || !strings.Contains(err.Error(), "busy timeout") {
		t.Fatalf("a zero busy timeout: %v", err)
	}
	path := filepath.Join(dir, "busy.db")
	s, err := tasks.Open(ctx, path, tasks.WithBusyTimeout(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, tasks.DefaultBusyTimeout/2)
	defer cancel()
	_, err = s.CreateProject(wctx, domain.Project{Slug: "p", Name: "P", Settings: domain.DefaultSettings()})
	if err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") {
		t.Fatalf("a write behind another connection's lock: %v", err)
	}
	if wctx.Err() != nil {
		t.Fatalf("the write waited for its context (%v), not for the store's busy timeout", wctx.Err())
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateProject(ctx, domain.Project{Slug: "p", Name: "P", Settings: domain.DefaultSettings()}); err != nil {
		t.Fatalf("the write once the lock is gone: %v", err)
	}
}
