package reportseed_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/tasks"
)

// TestSeedRuns seeds a small project with two assistant runs and expects
// a result of each run for every sentence, which the report reads.
func TestSeedRuns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "seed.db")
	if _, err := reportseed.Seed(ctx, path, reportseed.Options{Documents: 6, Summaries: 2, Sentences: 3, Runs: 2, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	s, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := s.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	data, err := s.ReportData(ctx, p.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Sentences) != 36 || len(data.Assistant) != 36 {
		t.Errorf("%d sentences, %d with the assistant's label; want 36 and 36", len(data.Sentences), len(data.Assistant))
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var runs, results int
	if err := db.QueryRow(`SELECT count(DISTINCT run_id), count(*) FROM assist_outputs`).Scan(&runs, &results); err != nil {
		t.Fatal(err)
	}
	if runs != 2 || results != 72 {
		t.Errorf("%d runs with %d results, want 2 with 72", runs, results)
	}
}
