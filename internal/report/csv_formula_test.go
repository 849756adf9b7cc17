package report_test

import (
	"strings"
	"testing"

	"annotate/internal/agreement"
	"annotate/internal/report"
)

// Finding 6, report tables: a dimension or annotator name that begins like
// a formula is written as text.
func TestReportCSVNeutralisesFormulas(t *testing.T) {
	r := &report.Report{Dimensions: []report.Dimension{{Name: "=1+cmd|' /C calc'!A0", Level: "sentence", Scale: "nominal",
		Pairwise: []agreement.Pair{{Coders: [2]string{"-ann", "@bob"}, N: 3}}}}}
	for _, table := range []string{"dimensions", "pairwise"} {
		var b strings.Builder
		if err := r.WriteCSV(&b, table); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n")[1:] {
			for _, cell := range strings.Split(line, ",") {
				if c := strings.TrimPrefix(cell, `"`); c != "" && strings.ContainsRune("=+@", rune(c[0])) || strings.HasPrefix(c, "-a") {
					t.Errorf("%s: cell %q starts like a formula", table, cell)
				}
			}
		}
	}
}
