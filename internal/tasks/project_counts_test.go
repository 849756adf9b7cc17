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

// idListOf reads the ids a query returns, on a connection of its own.
func idListOf(t *testing.T, path, query string, args ...any) ([]int64, error) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return tasks.IDList(context.Background(), db, query, args...)
}

// goldCount counts a project's sentences with a gold label directly.
func goldCount(t *testing.T, path string, projectID int64) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
		JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ? AND g.label != ''`, projectID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestProjectSentenceCounts: the overview's kept sentence count (and
// SentenceCount, which reads it alone) and count of sentences with a gold
// label follow gold decided, changed and removed, and follow an
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
			if gold := goldCount(t, s.Path(), id); o.GoldSentences != gold {
				t.Fatalf("after %s: project %d shows %d sentences with gold, has %d", what, id, o.GoldSentences, gold)
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
	// Gold decided on a sentence without any, then cleared and removed
	// directly; a second decision on gold that has a label.
	sents, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil || len(sents) == 0 {
		t.Fatalf("summaries %v, %v", sents, err)
	}
	first, err := s.Summary(ctx, sents[0])
	if err != nil {
		t.Fatal(err)
	}
	lead, err := s.CreateUser(ctx, "lead", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range first.Sentences {
		if _, err := s.SetGold(ctx, p.ID, x.ID, lead.ID, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}}); err != nil {
			t.Fatal(err)
		}
	}
	check("gold decided")
	if _, err := s.SetGold(ctx, p.ID, first.Sentences[0].ID, lead.ID, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful, Explanation: "Again."}}); err != nil {
		t.Fatal(err)
	}
	check("gold decided again")
	raw, err := sql.Open("sqlite", "file:"+s.Path()+"?_pragma=foreign_keys(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE gold_sentences SET label = '', provenance = 'unresolved' WHERE sentence_id = ?`, first.Sentences[0].ID); err != nil {
		t.Fatal(err)
	}
	check("gold cleared")
	if _, err := raw.Exec(`DELETE FROM gold_sentences WHERE sentence_id = ?`, first.Sentences[len(first.Sentences)-1].ID); err != nil {
		t.Fatal(err)
	}
	check("gold removed")
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
	// Gold on every sentence of the re-split summary's document, then a
	// sentence removed directly: its gold goes with it.
	doc, err := s.Summary(ctx, sum.ID)
	if err != nil {
		t.Fatal(err)
	}
	docSums, err := idListOf(t, s.Path(), `SELECT id FROM summaries WHERE document_id = ?`, doc.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range docSums {
		x, err := s.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, ss := range x.Sentences {
			if _, err := s.SetGold(ctx, p.ID, ss.ID, lead.ID, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	check("gold on a document's sentences")
	if _, err := raw.Exec(`DELETE FROM summary_sentences WHERE id = (SELECT max(id) FROM summary_sentences WHERE summary_id = ?)`, sum.ID); err != nil {
		t.Fatal(err)
	}
	check("a sentence with gold removed")
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
		`DROP TRIGGER project_counts_summaries_delete`, `DROP TRIGGER project_counts_gold_insert`, `DROP TRIGGER project_counts_gold_delete`,
		`DROP TRIGGER project_counts_gold_update`, `DROP TRIGGER project_counts_gold_sentences_delete`, `DROP TRIGGER project_counts_gold_summaries_delete`,
		`DROP TABLE project_counts`, `DROP TABLE project_gold`, `PRAGMA user_version = 36`} {
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
