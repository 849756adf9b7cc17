package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/report"
	"annotate/internal/reportseed"
	"annotate/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata")

// TestSeededReportUnchanged builds the report of seeded projects and
// compares every number with testdata/seeded-*.json. Those were first
// written by the earlier, matrix-based implementation, and written again
// (go test -run TestSeededReportUnchanged -update) when each annotator
// came to be scored against gold independent of them, where units
// without imported or adjudicated gold are scored against the others'
// strict majority; every other figure was unchanged then. The bootstrap
// is off: its draws are compared in the statistics package. Numbers may
// differ by rounding only.
func TestSeededReportUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name       string
		annotators int
		round      string
	}{
		{"pool3", 3, ""},
		{"pool7", 7, ""},
		{"pool7-cal1", 7, "cal1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			store, p := testkit.SeededProject(t, reportseed.Options{Documents: 30, Annotators: tc.annotators, Calibrate: 0.2, Seed: 4})
			data, err := store.ReportData(ctx, p.ID, domain.ReportFilter{})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := report.Build(p.Slug, data, p.Settings, report.Options{Round: tc.round})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(rep, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "seeded-"+tc.name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			dec := json.NewDecoder(bytes.NewReader(got))
			dec.UseNumber()
			if err := dec.Decode(&g); err != nil {
				t.Fatal(err)
			}
			dec = json.NewDecoder(bytes.NewReader(want))
			dec.UseNumber()
			if err := dec.Decode(&w); err != nil {
				t.Fatal(err)
			}
			for _, d := range diffJSON("", w, g, nil) {
				t.Error(d)
			}
		})
	}
}

// short cuts a value for an error message.
func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// diffJSON lists where got differs from want: numbers beyond 1e-9
// (relative), anything else exactly.
func diffJSON(path string, want, got any, out []string) []string {
	if len(out) > 20 {
		return out
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return append(out, fmt.Sprintf("%s: got %v, want an object", path, got))
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			out = diffJSON(path+"."+k, wv, gv, out)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: unexpected %v", path, k, g[k]))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return append(out, fmt.Sprintf("%s: got %s, want %s", path, short(got), short(want)))
		}
		for i := range w {
			out = diffJSON(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], out)
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok {
			return append(out, fmt.Sprintf("%s: got %s, want %s", path, short(got), short(want)))
		}
		a, _ := w.Float64()
		b, _ := g.Float64()
		if math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(a)) {
			out = append(out, fmt.Sprintf("%s: got %v, want %v", path, g, w))
		}
	default:
		if want != got {
			out = append(out, fmt.Sprintf("%s: got %v, want %v", path, got, want))
		}
	}
	return out
}
