// Package testkit holds what the tests of several packages share: an
// empty store or a seeded project in a test's temporary directory, a way
// to stop a test on a failed fixture step, and a small corpus. Only tests import it.
package testkit

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/tasks"
)

// OpenStore opens a new database in the test's temporary directory,
// closed when the test ends.
func OpenStore(t testing.TB) *tasks.Store {
	t.Helper()
	s, err := tasks.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// SeededProject makes reportseed's project with o in a new database in
// the test's temporary directory and opens it, closed when the test
// ends.
func SeededProject(t testing.TB, o reportseed.Options) (*tasks.Store, *domain.Project) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "seed.db")
	if _, err := reportseed.Seed(ctx, path, o); err != nil {
		t.Fatal(err)
	}
	store, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	p, err := store.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	return store, p
}

// ReportDB opens the database ANNOTATE_REPORT_DB names (a large one, as
// cmd/reportseed makes), closed when b ends, and finds its project
// ANNOTATE_REPORT_PROJECT, "big" by default; b is skipped when no
// database is named. The benchmarks on real-sized data use it.
func ReportDB(b testing.TB) (*tasks.Store, *domain.Project) {
	b.Helper()
	path := os.Getenv("ANNOTATE_REPORT_DB")
	if path == "" {
		b.Skip("ANNOTATE_REPORT_DB names no database")
	}
	slug := os.Getenv("ANNOTATE_REPORT_PROJECT")
	if slug == "" {
		slug = "big"
	}
	ctx := context.Background()
	s, err := tasks.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	p, err := s.ProjectBySlug(ctx, slug)
	if err != nil {
		b.Fatal(err)
	}
	return s, p
}

// Must returns the value of a call that should not fail, and stops the
// test when it does: ids := Must(store.SummaryIDs(ctx, p, nil))(t). A
// fixture step that fails silently would let the test pass or fail for
// another reason than the one it checks.
func Must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		return v
	}
}

// SampleDocs are two documents: prose with key facts and gold on its
// summary's sentences, and a dialogue with a summary-level gold label.
func SampleDocs() []domain.DocumentInput {
	yes := true
	return []domain.DocumentInput{
		{
			ExternalID: "d1", Kind: domain.KindProse, Sentences: []string{"The council met on Monday.", "It approved the budget."},
			Summaries: []domain.SummaryInput{{
				ExternalID: "d1-s1", Topic: "Budget", Model: "model_A",
				Sentences: []domain.SentenceInput{
					{Text: "The council approved the budget.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}},
					{Text: "The vote was unanimous.", Gold: &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"extrinsic_information"}, Explanation: "No vote count.", Ambiguous: &yes, AmbiguityType: "vagueness"}},
				},
			}},
			KeyFacts: []domain.KeyFactInput{{Topic: "Budget", Text: "The budget was approved."}},
		},
		{
			ExternalID: "d2", Kind: domain.KindDialogue, Turns: []domain.TurnInput{{Speaker: "Speaker 1", Text: "Hello."}, {Speaker: "Speaker 2", Text: "Hi."}},
			Summaries: []domain.SummaryInput{{ExternalID: "d2-s1", Sentences: []domain.SentenceInput{{Text: "Two people greet."}}, Gold: &domain.GoldInput{Label: domain.LabelFaithful}}},
		},
	}
}

// Main runs a test binary's tests (m.Run) the way the packages whose
// fixtures open many stores and accounts want them, and exits with their
// code: passwords hashed at bcrypt's lowest cost, and new databases copied
// from one migrated once (see tasks.UseSchemaTemplateForTests). after, if
// not nil, runs once the tests are done.
func Main(m *testing.M, after func()) {
	tasks.SetPasswordCostForTests(4)
	tasks.UseSchemaTemplateForTests()
	code := m.Run()
	if after != nil {
		after()
	}
	os.Exit(code)
}
