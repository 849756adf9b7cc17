package tasks_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// BenchmarkSaveSentenceLabel measures one label save, the write an
// annotator makes most: check the assignment, bump its version, upsert
// the label and append it to the history, in one transaction on a real
// database file. p99-ns is the slowest 1% of saves, where the WAL
// checkpoints show.
func BenchmarkSaveSentenceLabel(b *testing.B) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	u, _ := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "b", Settings: domain.DefaultSettings()})
	if err := s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator); err != nil {
		b.Fatal(err)
	}
	doc := domain.DocumentInput{ExternalID: "d", Sentences: []string{"The council met.", "It voted."},
		Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: []domain.SentenceInput{{Text: "The council met."}, {Text: "It voted."}}}}}
	if _, err := s.Import(ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		b.Fatal(err)
	}
	sums, _ := s.SummaryIDs(ctx, p.ID, nil)
	if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{u.ID}, Summaries: sums}); err != nil {
		b.Fatal(err)
	}
	q, _ := s.Queue(ctx, p.ID, u.ID)
	sum, _ := s.Summary(ctx, q[0].SummaryID)
	labels := []domain.SentenceLabel{
		{Label: "faithful"},
		{Label: "unfaithful", ErrorTypes: []string{"contradiction"}, Explanation: "The document says the opposite."},
	}
	version := 0
	var took []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		l := labels[i%2]
		l.SentenceID = sum.Sentences[i%2].ID
		t0 := time.Now()
		if version, err = s.SaveSentenceLabel(ctx, q[0].ID, u.ID, version, l); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100]), "p99-ns")
}
