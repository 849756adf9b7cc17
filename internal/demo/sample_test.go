package demo_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/assist"
	"annotate/internal/demo"
)

// TestSampleRun checks that the sample run covers every sentence of the
// corpus once and says on every line that no model wrote it.
func TestSampleRun(t *testing.T) {
	docs, err := demo.Documents()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, d := range docs {
		for _, s := range d.Summaries {
			for i := range s.Sentences {
				want[s.ExternalID+"#"+strconv.Itoa(i)] = true
			}
		}
	}
	dec := assist.NewDecoder(bytes.NewReader(demo.SampleRun()))
	seen := map[string]bool{}
	for {
		r, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !r.Sample || r.Run != "sample output" || !strings.Contains(r.Result.Model, "not from a model") ||
			!strings.HasPrefix(r.Result.Adjudicator.Report, "Sample output (not from a model)") {
			t.Fatalf("line %d is not marked as sample output: %+v", dec.Line(), r)
		}
		key := r.SummaryID + "#" + string(rune('0'+r.Result.Target))
		if !want[key] || seen[key] {
			t.Fatalf("line %d: sentence %s unknown or repeated", dec.Line(), key)
		}
		seen[key] = true
	}
	if len(seen) != len(want) {
		t.Fatalf("the sample run covers %d of %d sentences", len(seen), len(want))
	}
}
