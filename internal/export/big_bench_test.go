package export_test

import (
	"context"
	"testing"

	"annotate/internal/export"
	"annotate/internal/testkit"
)

// countingDiscard counts what an export writes.
type countingDiscard struct{ n int64 }

func (c *countingDiscard) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkExportBig writes the raw and gold exports (JSON Lines and CSV)
// of project "big" (or ANNOTATE_REPORT_PROJECT) in the database named by
// ANNOTATE_REPORT_DB (made by cmd/reportseed: 1.5 million sentence
// labels; see testkit.ReportDB), as "annotate export"
// does, and reports the throughput in MB/s and records (JSON Lines
// records or CSV rows) per second; it is skipped without one.
func BenchmarkExportBig(b *testing.B) {
	ctx := context.Background()
	s, p := testkit.ReportDB(b)
	for _, c := range []struct{ what, format string }{{export.Raw, "jsonl"}, {export.Raw, "csv"}, {export.Gold, "jsonl"}, {export.Gold, "csv"}} {
		b.Run(c.what+"-"+c.format, func(b *testing.B) {
			var size int64
			var records int
			for b.Loop() {
				e, err := export.New(ctx, s, p, export.Options{What: c.what, Format: c.format})
				if err != nil {
					b.Fatal(err)
				}
				w := &countingDiscard{}
				if err := e.Write(ctx, w); err != nil {
					b.Fatal(err)
				}
				size, records = w.n, e.Records()
			}
			b.SetBytes(size)
			b.ReportMetric(float64(records)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
