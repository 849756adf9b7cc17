package tasks

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
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

// TestOptimizeLeavesEmptyIndexesAlone: an index whose statistics say it
// is empty is analyzed again only once it has entries, so that opening a
// database whose failed results' index is empty for good writes nothing.
func TestOptimizeLeavesEmptyIndexesAlone(t *testing.T) {
	ctx := context.Background()
	s := openTempStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	stat := func() string {
		t.Helper()
		var v string
		if err := s.write.QueryRowContext(ctx, `SELECT stat FROM sqlite_stat1 WHERE idx = 'assist_outputs_failed'`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := s.write.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO assist_runs (project_id, protocol, model) VALUES (?, 'single', 'm')`, p.ID)
	exec(`INSERT INTO documents (project_id, external_id, kind) VALUES (?, 'd', 'prose')`, p.ID)
	exec(`INSERT INTO summaries (document_id, project_id, external_id) VALUES ((SELECT id FROM documents), ?, 's')`, p.ID)
	exec(`INSERT INTO summary_sentences (summary_id, idx, text) VALUES ((SELECT id FROM summaries), 1, 'A sentence.')`)
	exec(`INSERT INTO assist_outputs (run_id, sentence_id, status, label, output) VALUES
		((SELECT id FROM assist_runs), (SELECT id FROM summary_sentences), 'ok', 'faithful', '{}')`)
	exec(`ANALYZE`)
	exec(`UPDATE sqlite_stat1 SET stat = '0 7' WHERE idx = 'assist_outputs_failed'`)
	if err := s.optimize(ctx, "PRAGMA optimize"); err != nil {
		t.Fatal(err)
	}
	if got := stat(); got != "0 7" {
		t.Fatalf("an index still empty was analyzed again: statistics %q", got)
	}
	exec(`UPDATE assist_outputs SET status = 'error'`)
	if err := s.optimize(ctx, "PRAGMA optimize"); err != nil {
		t.Fatal(err)
	}
	if got := stat(); strings.HasPrefix(got, "0 ") {
		t.Fatalf("an index with an entry kept statistics of none: %q", got)
	}
}
