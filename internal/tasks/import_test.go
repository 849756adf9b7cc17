package tasks_test

import (
	"context"
	"reflect"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

func TestImport(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})

	st, err := s.Import(ctx, p.ID, testkit.SampleDocs())
	if err != nil {
		t.Fatal(err)
	}
	want := domain.ImportStats{Documents: 2, Units: 4, Summaries: 2, Sentences: 3, KeyFacts: 1, GoldSentences: 2, GoldSummaries: 1, AmbiguityLabels: 1}
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("first import = %+v, want %+v", st, want)
	}

	t.Run("re-import adds nothing", func(t *testing.T) {
		st, err := s.Import(ctx, p.ID, testkit.SampleDocs())
		if err != nil {
			t.Fatal(err)
		}
		want := domain.ImportStats{DocumentsExisting: 2, SummariesExisting: 2}
		if !reflect.DeepEqual(st, want) {
			t.Fatalf("re-import = %+v, want %+v", st, want)
		}
		o, _ := s.ProjectOverview(ctx, p.ID)
		if o.Documents != 2 || o.Summaries != 2 || o.Sentences != 3 || o.KeyFacts != 1 || o.GoldSentences != 2 {
			t.Fatalf("overview after re-import = %+v", o)
		}
	})

	t.Run("a bad record writes nothing", func(t *testing.T) {
		docs := []domain.DocumentInput{
			{ExternalID: "d3", Sentences: []string{"New."}, Summaries: []domain.SummaryInput{{ExternalID: "d3-s1", Sentences: []domain.SentenceInput{{Text: "New."}}}}},
			{ExternalID: "d4", Kind: "poem", Sentences: []string{"Bad."}},
		}
		if _, err := s.Import(ctx, p.ID, docs); domain.ErrorCode(err) != domain.EInvalid {
			t.Fatalf("err = %v, want invalid", err)
		}
		o, _ := s.ProjectOverview(ctx, p.ID)
		if o.Documents != 2 || o.Summaries != 2 {
			t.Fatalf("partial write: overview = %+v", o)
		}
	})

	t.Run("document rows", func(t *testing.T) {
		rows, err := s.DocumentRows(ctx, p.ID, 10, 0)
		if err != nil || len(rows) != 2 {
			t.Fatalf("rows = %+v, %v", rows, err)
		}
		if r := rows[0]; r.ExternalID != "d1" || r.Units != 2 || r.Summaries != 1 || r.Sentences != 2 || r.KeyFacts != 1 || r.Topics != 1 {
			t.Fatalf("row 0 = %+v", r)
		}
	})
}
