package tasks_test

import (
	"context"
	"database/sql"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// sentenceCount counts a project's sentences directly.
func sentenceCount(t *testing.T, path string, projectID int64) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?`, projectID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestProjectSentenceCounts: the overview's kept sentence count (and
// SentenceCount, which reads it alone) follows an
// import, a re-split that changes a summary's number of sentences, a
// document deleted with its summaries, and another project's import; and
// the migration that brings it in fills it.
func TestProjectSentenceCounts(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	other, _ := s.CreateProject(ctx, domain.Project{Slug: "o", Settings: domain.DefaultSettings()})
	check := func(what string) {
		t.Helper()
		for _, id := range []int64{p.ID, other.ID} {
			o, err := s.ProjectOverview(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			want := sentenceCount(t, s.Path(), id)
			if o.Sentences != want {
				t.Fatalf("after %s: project %d shows %d sentences, has %d", what, id, o.Sentences, want)
			}
			if n, err := s.SentenceCount(ctx, id); err != nil || n != want {
				t.Fatalf("after %s: SentenceCount of project %d = %d (%v), has %d", what, id, n, err, want)
			}
		}
	}
	if _, err := s.Import(ctx, p.ID, testkit.SampleDocs()); err != nil {
		t.Fatal(err)
	}
	check("an import")
	if _, err := s.Import(ctx, other.ID, testkit.SampleDocs()[:1]); err != nil {
		t.Fatal(err)
	}
	check("another project's import")
	sums, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil || len(sums) == 0 {
		t.Fatalf("summaries %v, %v", sums, err)
	}
	// A summary no one labelled, split in one more place.
	var sum *domain.Summary
	for _, id := range sums {
		x, err := s.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if why, err := s.SplitLock(ctx, id); err == nil && why == "" && len(x.Sentences) > 0 {
			sum = x
			break
		}
	}
	if sum == nil {
		t.Fatal("no summary to re-split")
	}
	var parts []string
	for _, x := range sum.Sentences {
		parts = append(parts, x.Text)
	}
	whole := parts[0]
	if len(whole) < 4 {
		t.Fatalf("sentence %q too short to split", whole)
	}
	parts = append([]string{whole[:len(whole)/2], whole[len(whole)/2:]}, parts[1:]...)
	if err := s.ResplitSummary(ctx, p.ID, sum.ID, parts); err != nil {
		t.Fatal(err)
	}
	check("a re-split")
	db, err := sql.Open("sqlite", "file:"+s.Path())
	db.SetMaxOpenConns(1) // the foreign keys pragma holds for its connection
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := sentenceCount(t, s.Path(), p.ID)
	if _, err := db.Exec(`PRAGMA foreign_keys = ON`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM documents WHERE id = (SELECT document_id FROM summaries WHERE id = ?)`, sum.ID); err != nil {
		t.Fatal(err)
	}
	if after := sentenceCount(t, s.Path(), p.ID); after >= before {
		t.Fatalf("deleting a document left %d of %d sentences", after, before)
	}
	check("a document deleted")
	// A database from before the counts: the migration fills them.
	for _, q := range []string{`DROP TRIGGER project_counts_sentences_insert`, `DROP TRIGGER project_counts_sentences_delete`,
		`DROP TRIGGER project_counts_summaries_delete`, `DROP TABLE project_counts`, `PRAGMA user_version = 36`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err = tasks.Open(ctx, s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check("the migration")
}
