package tasks_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// Finding 11, imports: NUL, control characters and invalid UTF-8 are
// refused, naming the field, and nothing of the import is written.
func TestImportRefusesBadText(t *testing.T) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	doc := func(sentence string) []domain.DocumentInput {
		return []domain.DocumentInput{
			{ExternalID: "ok", Sentences: []string{"Fine."}, Summaries: []domain.SummaryInput{{ExternalID: "s0", Sentences: []domain.SentenceInput{{Text: "Fine."}}}}},
			{ExternalID: "d1", Sentences: []string{"A document."}, Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: sentence}}}}},
		}
	}
	for name, bad := range map[string]string{"NUL": "a\x00b", "bell": "a\x07b", "invalid UTF-8": "a\xffb", "too long": strings.Repeat("x", 100_001)} {
		_, err := s.Import(ctx, p.ID, doc(bad))
		if domain.ErrorCode(err) != domain.EInvalid || !strings.Contains(err.Error(), "document d1: summaries[0].sentences[0].text") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if ids, _ := s.SummaryIDs(ctx, p.ID, nil); len(ids) != 0 {
		t.Fatalf("%d summaries written by refused imports", len(ids))
	}
	if _, err := s.Import(ctx, p.ID, doc("Tabs\tand\nlines are fine.")); err != nil {
		t.Fatalf("multi-line text refused: %v", err)
	}
}
