package tasks_test

import (
	"context"
	"database/sql"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// countOf runs a count query directly, on the store's read pool.
func countOf(t *testing.T, s *tasks.Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.Reader(context.Background()).QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// sentenceCount counts a project's sentences directly.
func sentenceCount(t *testing.T, s *tasks.Store, projectID int64) int {
	return countOf(t, s, `SELECT count(*) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?`, projectID)
}

// goldCount counts a project's sentences with a gold label directly.
func goldCount(t *testing.T, s *tasks.Store, projectID int64) int {
	return countOf(t, s, `SELECT count(*) FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
		JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ? AND g.label != ''`, projectID)
}

// decideFaithful gives each sentence gold "faithful", decided by user.
func decideFaithful(t *testing.T, s *tasks.Store, projectID, user int64, sentences ...int64) {
	t.Helper()
	for _, id := range sentences {
		if _, err := s.SetGold(context.Background(), projectID, id, user, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}}); err != nil {
			t.Fatal(err)
		}
	}
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
			want := sentenceCount(t, s, id)
			if o.Sentences != want {
				t.Fatalf("after %s: project %d shows %d sentences, has %d", what, id, o.Sentences, want)
			}
			if n, err := s.SentenceCount(ctx, id); err != nil || n != want {
				t.Fatalf("after %s: SentenceCount of project %d = %d (%v), has %d", what, id, n, err, want)
			}
			if gold := goldCount(t, s, id); o.GoldSentences != gold {
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
		decideFaithful(t, s, p.ID, lead.ID, x.ID)
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
	docSums, err := tasks.IDList(ctx, s.Reader(ctx), `SELECT id FROM summaries WHERE document_id = ?`, doc.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range docSums {
		x, err := s.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, ss := range x.Sentences {
			decideFaithful(t, s, p.ID, lead.ID, ss.ID)
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
	before := sentenceCount(t, s, p.ID)
	if _, err := db.Exec(`PRAGMA foreign_keys = ON`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM documents WHERE id = (SELECT document_id FROM summaries WHERE id = ?)`, sum.ID); err != nil {
		t.Fatal(err)
	}
	if after := sentenceCount(t, s, p.ID); after >= before {
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
