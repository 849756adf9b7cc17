package tasks_test

import (
	"context"
	"testing"
	"unsafe"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/testkit"
)

// TestReportSizeHintBoundsTheData: the size hint of a database is at
// least what its project's report data takes, counted from the data
// itself (its slices' structs, the distinct gold behind the sentences and
// the assistant's labels), and not more than a few times that.
func TestReportSizeHintBoundsTheData(t *testing.T) {
	ctx := context.Background()
	s, p := testkit.SeededProject(t, reportseed.Options{Documents: 60, Annotators: 4, Calibrate: 0.3, Gold: 0.5, Runs: 2, KeyFacts: 2, Links: true, Seed: 8})
	hint, err := s.ReportSizeHint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.ReportData(ctx, p.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	size := func(n int, each uintptr) int64 { return int64(n) * int64(each) }
	data := size(len(d.Labels), unsafe.Sizeof(domain.ReportLabel{})) +
		size(len(d.Assignments), unsafe.Sizeof(domain.ReportAssignment{})) +
		size(len(d.SummaryLabels), unsafe.Sizeof(domain.ReportSummaryLabel{})) +
		size(len(d.KeyFactLinks), unsafe.Sizeof(domain.ReportKeyFactLink{})) +
		size(len(d.Sentences), unsafe.Sizeof(domain.ReportSentence{})) +
		size(d.Assistant.Len(), unsafe.Sizeof(int64(0))+unsafe.Sizeof(uint8(0)))
	golds := map[*domain.ReportGold]bool{} // shared between sentences with equal gold
	for _, sn := range d.Sentences {
		if sn.Gold != nil && !golds[sn.Gold] {
			golds[sn.Gold] = true
			data += int64(unsafe.Sizeof(*sn.Gold))
		}
	}
	if len(d.Labels) == 0 || d.Assistant.Len() == 0 || len(d.KeyFactLinks) == 0 {
		t.Fatalf("the fixture reads %d labels, %d assistant labels, %d links", len(d.Labels), d.Assistant.Len(), len(d.KeyFactLinks))
	}
	t.Logf("hint %d bytes, data %d bytes", hint, data)
	if hint < data || hint > 4*data {
		t.Fatalf("size hint %d bytes for report data of %d bytes", hint, data)
	}
}
