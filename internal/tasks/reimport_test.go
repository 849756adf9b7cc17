package tasks_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// changesOf runs an import that must be refused for its differences and
// returns them.
func changesOf(t *testing.T, s *tasks.Store, req domain.ImportRequest) *domain.ChangesError {
	t.Helper()
	_, _, err := s.ImportWith(context.Background(), req)
	var ce *domain.ChangesError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want the list of changes", err)
	}
	return ce
}

// imported opens a store with sampleDocs imported into project p.
func imported(t *testing.T) (*tasks.Store, *domain.Project) {
	t.Helper()
	s := openStore(t)
	p, _ := s.CreateProject(context.Background(), domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if _, err := s.Import(context.Background(), p.ID, testkit.SampleDocs()); err != nil {
		t.Fatal(err)
	}
	return s, p
}

func TestReimportChanges(t *testing.T) {
	ctx := context.Background()
	var s *tasks.Store
	var p *domain.Project
	sumID := func(ext string) int64 {
		ids, _ := s.SummaryIDs(ctx, p.ID, nil)
		for _, id := range ids {
			if sum, _ := s.Summary(ctx, id); sum.ExternalID == ext {
				return id
			}
		}
		t.Fatalf("no summary %s", ext)
		return 0
	}

	t.Run("corrected gold and metadata are listed, then applied with update", func(t *testing.T) {
		s, p = imported(t)
		docs := testkit.SampleDocs()
		docs[0].Title = "Budget meeting"
		docs[0].Summaries[0].Sentences[0].Gold = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}}
		ce := changesOf(t, s, domain.ImportRequest{Project: p.ID, Documents: docs})
		got := ce.Error()
		for _, want := range []string{
			`nothing was imported (use --update to apply them)`,
			`document d1 title: metadata: (none) → "Budget meeting"`,
			`summary d1-s1 sentence 1: gold: "faithful (imported)" → "unfaithful [contradiction] (imported)"`,
		} {
			if !strings.Contains(got, want) {
				t.Errorf("changes:\n%s\nwant %q", got, want)
			}
		}
		st, applied, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: docs, Update: true})
		if err != nil || len(applied) != 2 || st.Documents != 0 {
			t.Fatalf("update: %+v %v %v", st, applied, err)
		}
		sum, _ := s.Summary(ctx, sumID("d1-s1"))
		gold, _ := s.SummaryGold(ctx, sum.ID)
		if g := gold[sum.Sentences[0].ID]; g.Label != domain.LabelUnfaithful || g.Provenance != domain.ProvImported {
			t.Errorf("gold after update %+v", g)
		}
		if _, _, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: docs}); err != nil {
			t.Errorf("the corrected file again: %v", err)
		}
	})

	t.Run("a new summary text without labels is applied with update", func(t *testing.T) {
		s, p = imported(t)
		docs := testkit.SampleDocs()
		docs[1].Summaries[0].Sentences = []domain.SentenceInput{{Text: "Two people say hello."}}
		ce := changesOf(t, s, domain.ImportRequest{Project: p.ID, Documents: docs})
		if len(ce.Changes) != 1 || ce.Changes[0].Kind != domain.ChangeText || ce.Changes[0].Reason != "" {
			t.Fatalf("changes %+v", ce.Changes)
		}
		if _, _, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: docs, Update: true}); err != nil {
			t.Fatal(err)
		}
		sum, _ := s.Summary(ctx, sumID("d2-s1"))
		if len(sum.Sentences) != 1 || sum.Sentences[0].Text != "Two people say hello." {
			t.Errorf("sentences %+v", sum.Sentences)
		}
	})

	t.Run("a text change where labels exist is refused unless relabel", func(t *testing.T) {
		s, p = imported(t)
		base := testkit.SampleDocs()
		base[1].Summaries[0].Sentences = []domain.SentenceInput{{Text: "Two people greet.", Labels: []domain.SentenceLabelInput{{Annotator: "w1", Label: "faithful"}}}}
		if _, err := s.Import(ctx, p.ID, base); err != nil {
			t.Fatal(err)
		}
		docs := testkit.SampleDocs()
		docs[1].Summaries[0].Sentences = []domain.SentenceInput{{Text: "Two people say hello.", Labels: []domain.SentenceLabelInput{{Annotator: "w1", Label: "unfaithful"}}}}
		ce := changesOf(t, s, domain.ImportRequest{Project: p.ID, Documents: docs})
		if !strings.Contains(ce.Error(), "refused: 1 annotator has already labelled it, and the labels would point at text nobody saw") {
			t.Errorf("changes:\n%s", ce)
		}
		ce = changesOf(t, s, domain.ImportRequest{Project: p.ID, Documents: docs, Update: true})
		if !ce.Refused || len(ce.Changes) != 1 || !strings.HasPrefix(ce.Error(), "refused: 1 change cannot be applied") {
			t.Errorf("update without relabel:\n%s", ce)
		}
		st, applied, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: docs, Update: true, Relabel: true})
		if err != nil || len(applied) != 1 || !strings.Contains(applied[0].Reason, "deleted 1 labels of 1 annotator") || st.Labels != 1 {
			t.Fatalf("relabel: %+v %+v %v", st, applied, err)
		}
		sum, _ := s.Summary(ctx, sumID("d2-s1"))
		if sum.Sentences[0].Text != "Two people say hello." {
			t.Errorf("sentences %+v", sum.Sentences)
		}
		// The old label is kept, with the text it was given on.
		r, err := s.BeginExport(ctx, domain.ExportScope{ProjectID: p.ID})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var stale []domain.StaleLabel
		if err := r.EachStaleLabel(ctx, "", func(l *domain.StaleLabel) error { stale = append(stale, *l); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(stale) != 1 || stale[0].SentenceText != "Two people greet." || stale[0].Label.Label != "faithful" || stale[0].Username != "w1" ||
			stale[0].Summary != "d2-s1" || stale[0].Sentence != 1 || !strings.Contains(stale[0].Reason, "summary d2-s1") {
			t.Errorf("stale labels %+v", stale)
		}
	})

	t.Run("a changed document text is listed", func(t *testing.T) {
		s, p = imported(t)
		docs := testkit.SampleDocs()
		docs[0].Sentences = []string{"The council met on Tuesday.", "It approved the budget."}
		ce := changesOf(t, s, domain.ImportRequest{Project: p.ID, Documents: docs})
		if len(ce.Changes) == 0 || !strings.Contains(ce.Error(), `document d1: text: "The council met on Monday. | It approved the budget." → "The council met on Tuesday. | It approved the budget."`) {
			t.Errorf("changes:\n%s", ce)
		}
	})
}
