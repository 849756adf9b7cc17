package tasks_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

// TestUnitNames: summaries and sentences are named by their documents' and
// summaries' external ids and the sentence's number as exported (the
// source's own number where the import kept one), as JSON arrays that
// survive ids holding '|', quotes or commas.
func TestUnitNames(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	docs := testkit.SampleDocs()
	docs[0].ExternalID = `d1|"x",y`
	docs[0].Summaries[0].Sentences[1].SourceIndex = 4
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	n, err := s.ProjectUnitNames(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]any
	for _, name := range n.Sentences {
		var v []any
		if err := json.Unmarshal([]byte(name), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got = append(got, v)
	}
	slices.SortFunc(got, func(a, b []any) int {
		if c := strings.Compare(a[1].(string), b[1].(string)); c != 0 {
			return c
		}
		return int(a[2].(float64) - b[2].(float64))
	})
	want := [][]any{{`d1|"x",y`, "d1-s1", 1.0}, {`d1|"x",y`, "d1-s1", 4.0}, {"d2", "d2-s1", 1.0}}
	if len(got) != len(want) {
		t.Fatalf("names %v", got)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("names %v, want %v", got, want)
		}
	}
	if len(n.Summaries) != 2 {
		t.Fatalf("summaries %v", n.Summaries)
	}
	if _, ok := (*domain.UnitNames)(nil).Sentence(1); ok {
		t.Fatal("a nil UnitNames named a sentence")
	}
}

// TestKeyFactUnitNames: a key fact's alignment with a sentence or a
// summary is named by the sentence's or summary's name with the key fact's
// topic and number (from 1, per document and topic) appended.
func TestKeyFactUnitNames(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	docs := testkit.SampleDocs()
	docs[0].KeyFacts = []domain.KeyFactInput{{Topic: "Budget", Text: "The council met."}, {Topic: "Budget", Text: "It passed the budget."}}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	n, err := s.ProjectUnitNames(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var second int64
	for id, name := range n.KeyFacts {
		if name == `["Budget",2]` {
			second = id
		}
	}
	if second == 0 {
		t.Fatalf("key facts %v", n.KeyFacts)
	}
	ids, err := s.SummaryIDs(ctx, p.ID, []string{"d1"})
	if err != nil || len(ids) != 1 {
		t.Fatalf("summaries of d1: %v %v", ids, err)
	}
	sum, _ := s.Summary(ctx, ids[0])
	got, ok := n.SentenceKeyFact(sum.Sentences[0].ID, second)
	if want := `["d1","d1-s1",1,["Budget",2]]`; !ok || got != want {
		t.Errorf("sentence alignment %q, want %q", got, want)
	}
	got, ok = n.SummaryKeyFact(sum.ID, second)
	if want := `["d1","d1-s1",["Budget",2]]`; !ok || got != want {
		t.Errorf("summary alignment %q, want %q", got, want)
	}
	if _, ok := n.SummaryKeyFact(sum.ID, -1); ok {
		t.Error("an unknown key fact was named")
	}
}
