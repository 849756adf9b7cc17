package report_test

import (
	"bytes"
	"context"
	"testing"

	"annotate/internal/report"
	"annotate/internal/reportseed"
)

// TestOneCoreSameReport builds a seeded project's report on one
// connection and one processor and on all of them: the JSON must be the
// same, bootstrap included.
func TestOneCoreSameReport(t *testing.T) {
	ctx := context.Background()
	store, p := seededProject(t, reportseed.Options{Documents: 20, Annotators: 4, Calibrate: 0.2, Seed: 7})
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
