package tasks_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// An update keeps at most domain.MaxKeptChanges of its differences and
// counts them all: the list grew with the project, each change holding
// both values whole.
func TestReimportKeepsBoundedChanges(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	n := domain.MaxKeptChanges + 37
	docs := func(title string) []domain.DocumentInput {
		out := make([]domain.DocumentInput, n)
		for i := range out {
			out[i] = domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Title: title, Sentences: []string{"A cat sat."},
				Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: "A cat sat."}}}}}
		}
		return out
	}
	if _, err := s.Import(ctx, p.ID, docs("")); err != nil {
		t.Fatal(err)
	}
	ce := changesOf(t, s, domain.ImportRequest{Project: p.ID, Documents: docs("Cats")})
	if len(ce.Changes) != domain.MaxKeptChanges || ce.All() != n {
		t.Fatalf("refused: %d changes kept of %d, want %d of %d", len(ce.Changes), ce.All(), domain.MaxKeptChanges, n)
	}
	if want := fmt.Sprintf("differs from the project in %d places", n); !strings.Contains(ce.Error(), want) || !strings.Contains(ce.Error(), fmt.Sprintf("... and %d more", n-200)) {
		t.Errorf("message lacks the count: %.300s", ce.Error())
	}
	st, applied, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: docs("Cats"), Update: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != domain.MaxKeptChanges || st.Changes != n {
		t.Fatalf("applied: %d kept, %d counted; want %d and %d", len(applied), st.Changes, domain.MaxKeptChanges, n)
	}
}
