package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"testing"

	"annotate/internal/export"
)

// TestRawExportKeepsOrderAcrossBatches exports a project of 400
// summaries, which the raw export reads and writes in many batches on two
// goroutines, and checks that every row comes once, in document, summary
// and sentence order.
func TestRawExportKeepsOrderAcrossBatches(t *testing.T) {
	s, p := bigProject(t, 2_000)
	ctx := context.Background()
	e, err := export.New(ctx, s, p, export.Options{What: export.Raw, Format: export.CSV})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := e.Write(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for d := 0; d < 200; d++ {
		for k := range 2 {
			for i := 1; i <= 5; i++ {
				want = append(want, fmt.Sprintf("doc-%06d/doc-%06d-s%d/%d/Summary sentence %d of %d.", d, d, k, i, i-1, d))
			}
		}
	}
	if len(rows)-1 != len(want) || e.Records() != len(want) {
		t.Fatalf("%d rows (%d records), want %d", len(rows)-1, e.Records(), len(want))
	}
	for i, r := range rows[1:] {
		if got := r[3] + "/" + r[4] + "/" + r[7] + "/" + r[8]; got != want[i] {
			t.Fatalf("row %d is %s, want %s", i+1, got, want[i])
		}
	}
}

// failingWriter fails once it has taken n bytes.
type failingWriter struct{ n int }

var errFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errFull
	}
	return len(p), nil
}

// TestRawExportStopsAtAWriteError checks that a raw export whose writer
// fails part-way returns that error, rather than hanging with its reader
// waiting or reporting success.
func TestRawExportStopsAtAWriteError(t *testing.T) {
	s, p := bigProject(t, 2_000)
	ctx := context.Background()
	for _, format := range []string{export.CSV, export.JSONL} {
		e, err := export.New(ctx, s, p, export.Options{What: export.Raw, Format: format})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Write(ctx, &failingWriter{n: 100 << 10}); !errors.Is(err, errFull) {
			t.Errorf("%s: Write returned %v, want %v", format, err, errFull)
		}
	}
}
