package report_test

import (
	"context"
	"encoding/json"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/report"
	"annotate/internal/reportseed"
	"annotate/internal/testkit"
)

// TestTrendPointOfBootstrappedReport checks that a round's trend point,
// when the round is the report's scope, shows α as the report without a
// bootstrap computes it: the same value, with no interval.
func TestTrendPointOfBootstrappedReport(t *testing.T) {
	ctx := context.Background()
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 20, Annotators: 4, Calibrate: 0.3, Seed: 9})
	data, err := store.ReportData(ctx, p.ID, domain.ReportFilter{Round: "cal1"})
	if err != nil {
		t.Fatal(err)
	}
	build := func(replicates int) *report.Report {
		rep, err := report.Build(p.Slug, data, p.Settings, report.Options{Round: "cal1", Bootstrap: replicates, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	boot, plain := build(200), build(0)
	if len(boot.Trend) != 1 || len(boot.Trend[0].Dimensions) != len(plain.Dimensions) || len(plain.Dimensions) == 0 {
		t.Fatalf("trend %d rounds, dimensions %d and %d", len(boot.Trend), len(boot.Trend[0].Dimensions), len(plain.Dimensions))
	}
	withCI := 0
	for i, d := range plain.Dimensions {
		if boot.Dimensions[i].Statistics.KrippendorffAlpha.CI95 != nil {
			withCI++
		}
		got, _ := json.Marshal(boot.Trend[0].Dimensions[i].Statistics)
		want, _ := json.Marshal(d.Statistics)
		if string(got) != string(want) {
			t.Errorf("%s@%s: trend point %s\nwant %s", d.Name, d.Level, got, want)
		}
	}
	if withCI == 0 {
		t.Fatal("no dimension's α was bootstrapped")
	}
}
