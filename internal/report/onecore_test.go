package report_test

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"annotate/internal/iaa"
	"annotate/internal/report"
	"annotate/internal/reportseed"
	"annotate/internal/testkit"
)

// TestOneCoreSameReport builds a seeded project's report on one
// connection and one processor and on all of them: the JSON must be the
// same, bootstrap included.
func TestOneCoreSameReport(t *testing.T) {
	ctx := context.Background()
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 20, Annotators: 4, Calibrate: 0.2, Seed: 7})
	build := func(oneCore bool) []byte {
		opt := report.Options{Bootstrap: 200, Seed: 3, OneCore: oneCore}
		data, err := store.ReportData(ctx, p.ID, opt.Filter())
		if err != nil {
			t.Fatal(err)
		}
		rep, err := report.Build(p.Slug, data, p.Settings, opt)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := rep.Write(&buf, "json"); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	all, one := build(false), build(true)
	if len(all) < 1000 || !bytes.Equal(all, one) {
		t.Fatalf("reports differ (%d and %d bytes)", len(all), len(one))
	}
}

// TestOneCoreBuildStartsNoGoroutine builds a report with OneCore and
// checks that every computation, bootstrap included, ran on the calling
// goroutine (the one a server lowers the priority of, see package
// background), and that a build on two processors starts goroutines.
func TestOneCoreBuildStartsNoGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	ctx := context.Background()
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 20, Annotators: 4, Calibrate: 0.2, Seed: 5})
	started := func(oneCore bool) int64 {
		opt := report.Options{Bootstrap: 1000, Seed: 3, OneCore: oneCore}
		data, err := store.ReportData(ctx, p.ID, opt.Filter())
		if err != nil {
			t.Fatal(err)
		}
		before := report.ParallelGoroutines.Load() + iaa.BootstrapGoroutinesForTests()
		if _, err := report.Build(p.Slug, data, p.Settings, opt); err != nil {
			t.Fatal(err)
		}
		return report.ParallelGoroutines.Load() + iaa.BootstrapGoroutinesForTests() - before
	}
	if n := started(true); n != 0 {
		t.Fatalf("a build on one core started %d goroutines", n)
	}
	if n := started(false); n < 2 {
		t.Fatalf("a build on two processors started %d goroutines", n)
	}
}
