package report_test

import (
	"context"
	"io"
	"os"
	"testing"

	"annotate/internal/report"
	"annotate/internal/testkit"
)

// BenchmarkProjectReport loads and builds the report of project "big" in
// the database named by ANNOTATE_REPORT_DB (made by cmd/reportseed), as
// "annotate agreement --project big --format json" does; it is skipped
// without one. ANNOTATE_REPORT_ROUND chooses a round,
// ANNOTATE_REPORT_PROJECT another project (the load generator's is
// "bench") and ANNOTATE_REPORT_DRAFTS=1 counts unsubmitted labels too
// (--drafts).
func BenchmarkProjectReport(b *testing.B) {
	ctx := context.Background()
	store, p := testkit.ReportDB(b)
	opt := report.Options{Round: os.Getenv("ANNOTATE_REPORT_ROUND"), Bootstrap: report.DefaultBootstrap, Seed: 1,
		IncludeDrafts: os.Getenv("ANNOTATE_REPORT_DRAFTS") == "1"}
	for b.Loop() {
		data, err := store.ReportData(ctx, p.ID, opt.Filter())
		if err != nil {
			b.Fatal(err)
		}
		rep, err := report.Build(p.Slug, data, p.Settings, opt)
		if err != nil {
			b.Fatal(err)
		}
		if err := rep.Write(io.Discard, "json"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProjectReportData loads what the report of project "big" in
// ANNOTATE_REPORT_DB reads, without building it.
func BenchmarkProjectReportData(b *testing.B) {
	ctx := context.Background()
	store, p := testkit.ReportDB(b)
	opt := report.Options{Round: os.Getenv("ANNOTATE_REPORT_ROUND"), IncludeDrafts: os.Getenv("ANNOTATE_REPORT_DRAFTS") == "1"}
	for b.Loop() {
		if _, err := store.ReportData(ctx, p.ID, opt.Filter()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProjectReportBuild builds the report of project "big" in
// ANNOTATE_REPORT_DB from data read once, without reading it again: the
// build's share of BenchmarkProjectReport.
func BenchmarkProjectReportBuild(b *testing.B) {
	ctx := context.Background()
	store, p := testkit.ReportDB(b)
	opt := report.Options{Round: os.Getenv("ANNOTATE_REPORT_ROUND"), Bootstrap: report.DefaultBootstrap, Seed: 1,
		IncludeDrafts: os.Getenv("ANNOTATE_REPORT_DRAFTS") == "1"}
	data, err := store.ReportData(ctx, p.ID, opt.Filter())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := report.Build(p.Slug, data, p.Settings, opt); err != nil {
			b.Fatal(err)
		}
	}
}
