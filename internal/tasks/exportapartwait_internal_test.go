package tasks

import (
	"context"
	"fmt"
	"testing"
	"time"

	"annotate/internal/domain"
)

// An export's second connection only speeds it up: while every other
// read connection is held, its reading goes on its own connection after
// apartConnWait, where it waited for a free one as long as its caller.
func TestExportReadsAloneWhenNoSecondConnectionIsFree(t *testing.T) {
	ctx := context.Background()
	s := openTempStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	var docs []domain.DocumentInput
	for i := range 3 {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"A cat sat."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: "A cat sat."}, {Text: "It slept."}}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { apartConnWait = d }(apartConnWait)
	apartConnWait = 20 * time.Millisecond
	bounded, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	r, err := s.BeginExport(bounded, domain.ExportScope{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	holdOtherReadConns(t, s)
	sentences := 0
	err = r.EachSummarySentences(bounded, func(_ *domain.ExportSummary, sents []domain.ExportSentence) error {
		sentences += len(sents)
		return nil
	})
	if err != nil || sentences != 6 {
		t.Fatalf("with every other connection held: %d sentences, %v (want 6, before the test's deadline)", sentences, err)
	}
	// Nothing of the export is left holding the second slot.
	select {
	case s.reportApart <- struct{}{}:
		<-s.reportApart
	default:
		t.Fatal("the export kept the second reading's slot")
	}
}

// The report's reading likewise: with every other read connection held,
// it reads on one connection after apartConnWait.
func TestReportReadsAloneWhenNoSecondConnectionIsFree(t *testing.T) {
	ctx := context.Background()
	s := openTempStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	docs := []domain.DocumentInput{{ExternalID: "d", Sentences: []string{"A cat sat."},
		Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: []domain.SentenceInput{{Text: "A cat sat."}}}}}}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { apartConnWait = d }(apartConnWait)
	apartConnWait = 20 * time.Millisecond
	holdOtherReadConns(t, s)
	bounded, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	d, err := s.ReportData(bounded, p.ID, domain.ReportFilter{})
	if err != nil || d == nil {
		t.Fatalf("with every other connection held: %v (want the report's data before the test's deadline)", err)
	}
}

// holdOtherReadConns takes every read connection of s but one until the
// test ends.
func holdOtherReadConns(t *testing.T, s *Store) {
	t.Helper()
	for range s.ReadConns() - 1 {
		c, err := s.read.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
}
