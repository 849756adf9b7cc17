package tasks_test

import (
	"bytes"
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
	_, conn := otherConnection(t, path)
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

// TestOpenBesideAnotherProcessWrite: opening a database already at this
// build's schema writes nothing and waits for no lock, so a command that
// only reads (a report, an export) opens and reads, and the server reads
// its keys, while another process holds the write lock for longer than
// the busy timeout (a long import).
// The statistics say an index is empty, which makes opening try to
// analyze it again: that is left for later rather than waited for.
func TestOpenBesideAnotherProcessWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "held.db")
	s, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateProject(ctx, domain.Project{Slug: "p", Name: "P", Settings: domain.DefaultSettings()}); err != nil {
		t.Fatal(err)
	}
	key, err := s.Secret(ctx, "csrf-key", 32)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	other, conn := otherConnection(t, path)
	for _, q := range []string{`ANALYZE`, `DELETE FROM sqlite_stat1 WHERE idx = 'assist_outputs_sentence'`,
		`INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('assist_outputs', 'assist_outputs_sentence', '0')`,
		`BEGIN IMMEDIATE`, `UPDATE projects SET name = 'Q'`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	r, err := tasks.Open(ctx, path, tasks.Existing(), tasks.WithBusyTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatalf("open beside another process's write: %v", err)
	}
	defer r.Close()
	p, err := r.ProjectBySlug(ctx, "p")
	if err != nil || p.Name != "P" {
		t.Fatalf("read beside another process's write: %v, %v", p, err)
	}
	// The server's start reads its keys: one made before is read, a new
	// one must wait to be written.
	if got, err := r.Secret(ctx, "csrf-key", 32); err != nil || !bytes.Equal(got, key) {
		t.Fatalf("a secret made before, beside another process's write: %x, %v", got, err)
	}
	if _, err := r.Secret(ctx, "new-key", 32); err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") {
		t.Fatalf("a new secret beside another process's write: %v", err)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	var stat string
	if err := other.QueryRowContext(ctx, `SELECT stat FROM sqlite_stat1 WHERE idx = 'assist_outputs_sentence'`).Scan(&stat); err != nil || stat != "0" {
		t.Fatalf("the empty index's statistics: %q, %v", stat, err)
	}
}

// otherConnection opens the database at path as another process would,
// and one connection of it; both are closed when the test ends.
func otherConnection(t *testing.T, path string) (*sql.DB, *sql.Conn) {
	t.Helper()
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return other, conn
}
