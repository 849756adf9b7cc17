package tasks_test

import (
	"context"
	"testing"

	"annotate/internal/domain"
)

// Key facts of a new document are numbered per topic and a repeat is
// added once, as for a document already there, where a continuation
// record adds the facts it does not have yet after those it has.
func TestImportKeyFactsNumberedPerTopic(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	doc := domain.DocumentInput{ExternalID: "d", Sentences: []string{"S."}, KeyFacts: []domain.KeyFactInput{
		{Topic: "a", Text: "One."}, {Topic: "b", Text: "Two."}, {Topic: "a", Text: " One. "}, {Topic: "a", Text: "Three."}}}
	more := domain.DocumentInput{ExternalID: "d", Continuation: true, KeyFacts: []domain.KeyFactInput{{Topic: "a", Text: "Three."}, {Topic: "a", Text: "Four."}}}
	st, err := s.Import(ctx, p.ID, []domain.DocumentInput{doc, more})
	if err != nil {
		t.Fatal(err)
	}
	if st.KeyFacts != 4 {
		t.Errorf("%d key facts imported, want 4", st.KeyFacts)
	}
	for topic, want := range map[string][]string{"a": {"One.", "Three.", "Four."}, "b": {"Two."}} {
		got, err := s.KeyFacts(ctx, 1, topic)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("topic %s: %+v, want %v", topic, got, want)
		}
		for i, f := range got {
			if f.Text != want[i] || f.Index != i+1 {
				t.Errorf("topic %s fact %d: %d %q, want %d %q", topic, i, f.Index, f.Text, i+1, want[i])
			}
		}
	}
}
