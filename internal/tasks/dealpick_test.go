package tasks_test

import (
	"context"
	"fmt"
	"testing"

	"annotate/internal/domain"
)

// TestPickDocumentsStopsAtTheBound: a project with more documents than
// the list shows gives the first 500 by external id and says there are
// more; a filter nothing passes gives none and no more.
func TestPickDocumentsStopsAtTheBound(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, err := s.CreateProject(ctx, domain.Project{Slug: "pick", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	const n = 520
	var docs []domain.DocumentInput
	for i := n - 1; i >= 0; i-- {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%04d", i), Kind: domain.KindProse, Sentences: []string{"It rained."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%04d", i), Topic: "weather", Sentences: []domain.SentenceInput{{Text: "Rain."}}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	for _, f := range []domain.DocumentFilter{{}, {Gold: "none"}, {Topic: "weather"}} {
		got, more, err := s.PickDocuments(ctx, p.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 500 || !more || got[0].ExternalID != "d0000" || got[499].ExternalID != "d0499" || got[499].Sentences != 1 {
			t.Fatalf("filter %+v: %d documents (more %v), first %+v", f, len(got), more, got[0])
		}
	}
	for _, f := range []domain.DocumentFilter{{Gold: "all"}, {Query: "d05"}} {
		got, more, err := s.PickDocuments(ctx, p.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if f.Query != "" {
			want = 20
		}
		if len(got) != want || more {
			t.Fatalf("filter %+v: %d documents (more %v), want %d", f, len(got), more, want)
		}
	}
}
