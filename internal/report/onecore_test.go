package report_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"annotate/internal/report"
	"annotate/internal/reportseed"
	"annotate/internal/tasks"
)

// TestOneCoreSameReport builds a seeded project's report on one
// connection and one processor and on all of them: the JSON must be the
// same, bootstrap included.
func TestOneCoreSameReport(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "seed.db")
	if _, err := reportseed.Seed(ctx, path, reportseed.Options{Documents: 20, Annotators: 4, Calibrate: 0.2, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	store, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p, err := store.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
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
