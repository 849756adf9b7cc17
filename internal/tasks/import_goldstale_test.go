package tasks_test

import (
	"context"
	"slices"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// An import holds the trigger that marks a sentence's gold index row
// stale for each label written, and marks them once at its end: labels
// imported into an assignment already there make the row of its
// sentence whose gold waits (imported) stale, as the trigger does, and
// leave the rows of sentences they did not label.
func TestImportedLabelsMarkWaitingGoldStale(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	doc := domain.DocumentInput{ExternalID: "d", Sentences: []string{"A."}, Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: []domain.SentenceInput{
		{Text: "One.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}},
		{Text: "Two."},
	}}}}
	other := domain.DocumentInput{ExternalID: "e", Sentences: []string{"B."}, Summaries: []domain.SummaryInput{{ExternalID: "t", Sentences: []domain.SentenceInput{
		{Text: "Other.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}},
	}}}}
	if _, err := s.Import(ctx, p.ID, []domain.DocumentInput{doc, other}); err != nil {
		t.Fatal(err)
	}
	label := func(who string, sent int) domain.LabelRecord {
		return domain.LabelRecord{Summary: "s", Sentence: sent, Source: "test", Label: &domain.SentenceLabelInput{Annotator: who, Round: "r", Label: domain.LabelUnfaithful}}
	}
	// w1's assignment of s in round r, made by a first import.
	if _, err := s.Import(ctx, p.ID, nil, label("w1", 2)); err != nil {
		t.Fatal(err)
	}
	// An annotator's open assignment of s in another round keeps the
	// next import from resolving s: only its label can mark s's gold
	// stale.
	ann, err := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetMember(ctx, p.ID, ann.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	ids, err := s.SummaryIDs(ctx, p.ID, []string{"d"})
	if err != nil || len(ids) != 1 {
		t.Fatalf("summaries of d: %v, %v", ids, err)
	}
	if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "open", Kind: domain.RoundCalibration, Annotators: []int64{ann.ID}, Summaries: ids}); err != nil {
		t.Fatal(err)
	}
	if err := s.RefreshGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := s.StaleGoldRows(ctx, p.ID); err != nil || n != 0 {
		t.Fatalf("%d stale rows after a refresh, %v", n, err)
	}
	// w1's label of sentence 1 goes into the assignment there was.
	if _, err := s.Import(ctx, p.ID, nil, label("w1", 1)); err != nil {
		t.Fatal(err)
	}
	// Sentence 1 of s has imported gold, which waits: the label makes its
	// row stale. Summary t was not labelled.
	if stale := staleGold(t, s); len(stale) != 1 || stale[0] != "s1" {
		t.Fatalf("stale sentences %v, want [s1]", stale)
	}
	// A new annotator's label of sentence 2 makes an assignment of s:
	// that marks the gold of all s's sentences stale, as a round dealing
	// s does; the label marks sentence 2's (unresolved since w1's label).
	if err := s.RefreshGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, p.ID, nil, label("w2", 2)); err != nil {
		t.Fatal(err)
	}
	if stale := staleGold(t, s); !slices.Equal(stale, []string{"s1", "s2"}) {
		t.Fatalf("stale sentences after a new assignment %v, want [s1 s2]", stale)
	}
	// A document imported with gold and labels: its summary's gold is
	// marked stale as it is written.
	if err := s.RefreshGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	fresh := domain.DocumentInput{ExternalID: "f", Sentences: []string{"C."}, Summaries: []domain.SummaryInput{{ExternalID: "u", Sentences: []domain.SentenceInput{
		{Text: "New.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}, Labels: []domain.SentenceLabelInput{{Annotator: "w1", Round: "r", Label: domain.LabelUnfaithful}}},
	}}}}
	if _, err := s.Import(ctx, p.ID, []domain.DocumentInput{fresh}); err != nil {
		t.Fatal(err)
	}
	if stale := staleGold(t, s); len(stale) != 1 || stale[0] != "u1" {
		t.Fatalf("stale sentences after a new document %v, want [u1]", stale)
	}
}

// staleGold lists the gold index rows waiting to be counted again, as
// summary and sentence index ("s1").
func staleGold(t *testing.T, s *tasks.Store) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := s.Reader(ctx).QueryContext(ctx, `SELECT sm.external_id || ss.idx FROM gold_tallies_stale g JOIN summary_sentences ss ON ss.id = g.sentence_id
		JOIN summaries sm ON sm.id = ss.summary_id ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var stale []string
	for rows.Next() {
		var at string
		if err := rows.Scan(&at); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, at)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return stale
}
