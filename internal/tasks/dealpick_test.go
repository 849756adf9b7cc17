package tasks_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit/sqlplan"
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

// TestProjectTopicsStepThroughTheIndex: the project's topics, listed by
// stepping through the topic index, are its summaries' distinct
// non-empty topics in order, another project's aside.
func TestProjectTopicsStepThroughTheIndex(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	var ids []int64
	for k, topics := range [][]string{{"rain", "", "budget", "rain", "Zoo", "budget", "harbour"}, {"other", "rain"}} {
		p, err := s.CreateProject(ctx, domain.Project{Slug: fmt.Sprint("topics", k), Settings: domain.DefaultSettings()})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
		var docs []domain.DocumentInput
		for i, topic := range topics {
			docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprint("d", i), Kind: domain.KindProse, Sentences: []string{"It rained."},
				Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprint("s", i), Topic: topic, Sentences: []domain.SentenceInput{{Text: "Rain."}}}}})
		}
		if _, err := s.Import(ctx, p.ID, docs); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ProjectTopics(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Zoo", "budget", "harbour", "rain"}; !slices.Equal(got, want) {
		t.Fatalf("topics %q, want %q", got, want)
	}
	if n, err := s.SummaryCount(ctx, ids[0]); err != nil || n != 7 {
		t.Fatalf("%d summaries (%v), want 7", n, err)
	}
	db, err := sql.Open("sqlite", "file:"+s.Path()+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	plan := sqlplan.Of(t, db, tasks.ProjectTopicsQuery, ids[0])
	if p := strings.Join(plan, "; "); !strings.Contains(p, "summaries_topic") || strings.Contains(p, "TEMP B-TREE") || strings.Contains(p, "SCAN summaries") {
		t.Fatalf("plan: %s", p)
	}
}
