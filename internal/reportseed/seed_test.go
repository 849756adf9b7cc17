package reportseed_test

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"strings"
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
	if len(data.Sentences) != 36 || data.Assistant.Len() != 36 {
		t.Errorf("%d sentences, %d with the assistant's label; want 36 and 36", len(data.Sentences), data.Assistant.Len())
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

// TestSeedKeyFactLinks seeds a project whose documents have three key
// facts, aligned by the annotators, and expects links that name a key
// fact of the summary's document and a sentence of the assignment's
// summary, at most one sentence per key fact and assignment, and the same
// sentence labels as without links.
func TestSeedKeyFactLinks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	o := reportseed.Options{Documents: 8, Summaries: 2, Sentences: 4, KeyFacts: 3, Seed: 3}
	plain := filepath.Join(dir, "plain.db")
	if _, err := reportseed.Seed(ctx, plain, o); err != nil {
		t.Fatal(err)
	}
	o.Links = true
	linked := filepath.Join(dir, "linked.db")
	if _, err := reportseed.Seed(ctx, linked, o); err != nil {
		t.Fatal(err)
	}
	open := func(path string) *sql.DB {
		db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	db := open(linked)
	var keyFacts, links, wrong, twice int
	for q, n := range map[string]*int{
		`SELECT count(*) FROM key_facts`:      &keyFacts,
		`SELECT count(*) FROM keyfact_labels`: &links,
		`SELECT count(*) FROM keyfact_labels kl JOIN assignments a ON a.id = kl.assignment_id JOIN summaries s ON s.id = a.summary_id
			JOIN key_facts k ON k.id = kl.key_fact_id JOIN summary_sentences ss ON ss.id = kl.sentence_id
			WHERE k.document_id != s.document_id OR ss.summary_id != s.id`: &wrong,
		`SELECT count(*) FROM (SELECT 1 FROM keyfact_labels GROUP BY assignment_id, key_fact_id HAVING count(*) > 1)`: &twice,
	} {
		if err := db.QueryRow(q).Scan(n); err != nil {
			t.Fatal(err)
		}
	}
	if keyFacts != 24 || links == 0 || wrong != 0 || twice != 0 {
		t.Errorf("%d key facts (want 24), %d links (want some), %d of another document or summary and %d key facts linked twice (want none)",
			keyFacts, links, wrong, twice)
	}
	labels := func(db *sql.DB) string {
		var s string
		if err := db.QueryRow(`SELECT group_concat(assignment_id || ':' || sentence_id || ':' || label || error_types, ',') FROM
			(SELECT * FROM sentence_labels ORDER BY assignment_id, sentence_id)`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if a, b := labels(open(plain)), labels(db); a != b || a == "" {
		t.Errorf("sentence labels differ with links:\n%s\n%s", a, b)
	}
	if err := open(plain).QueryRow(`SELECT count(*) FROM keyfact_labels`).Scan(&links); err != nil || links != 0 {
		t.Errorf("%d links without Links (%v), want none", links, err)
	}
}

// Sizes below zero and shares outside [0, 1] are refused, naming the
// option, before the database is made.
func TestSeedRefusesBadOptions(t *testing.T) {
	for _, c := range []struct {
		o    reportseed.Options
		want string
	}{
		{reportseed.Options{Documents: -3}, "documents: -3"},
		{reportseed.Options{KeyFacts: -2}, "key-facts: -2"},
		{reportseed.Options{Runs: -1}, "runs: -1"},
		{reportseed.Options{Calibrate: 1.5}, "calibrate: 1.5"},
		{reportseed.Options{Gold: math.NaN()}, "gold: NaN"},
	} {
		path := filepath.Join(t.TempDir(), "seed.db")
		_, err := reportseed.Seed(context.Background(), path, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %q", c.o, err, c.want)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%+v: the database was made (%v)", c.o, err)
		}
	}
}
