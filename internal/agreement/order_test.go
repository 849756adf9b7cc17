package agreement_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"annotate/internal/agreement"
)

// TestAlphaSameInEveryRowOrder reads the same ratings laid out unit by
// unit, coder by coder and shuffled, at every level, and expects the same
// α. 30,000 units × 3 coders make enough rows, one per group when not
// grouped by unit, for the reader to look units up (in batches when
// shuffled) rather than take each group for a new unit.
func TestAlphaSameInEveryRowOrder(t *testing.T) {
	const units, coders = 30_000, 3
	rng := rand.New(rand.NewPCG(7, 8))
	scale := []string{"1", "2", "2.5", "3", "4", "5"}
	cells := make([]string, units*coders) // "" for no rating; "-" for no row
	for u := range units {
		truth := rng.IntN(len(scale))
		for c := range coders {
			v := scale[truth]
			if rng.Float64() < 0.3 {
				v = scale[rng.IntN(len(scale))]
			}
			switch r := rng.Float64(); {
			case r < 0.02:
				v = ""
			case r < 0.04:
				v = "-"
			}
			cells[u*coders+c] = v
		}
	}
	row := func(cell int) string {
		if cells[cell] == "-" {
			return ""
		}
		return fmt.Sprintf("unit-%05d,coder%d,%s\n", cell/coders, cell%coders, cells[cell])
	}
	file := func(order []int) string {
		var b strings.Builder
		b.WriteString("unit,coder,value\n")
		for _, cell := range order {
			b.WriteString(row(cell))
		}
		return b.String()
	}
	byUnit := make([]int, 0, len(cells))
	for i := range cells {
		byUnit = append(byUnit, i)
	}
	byCoder := make([]int, 0, len(cells))
	for c := range coders {
		for u := range units {
			byCoder = append(byCoder, u*coders+c)
		}
	}
	shuffled := append([]int(nil), byUnit...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	files := map[string]string{"unit-major": file(byUnit), "coder-major": file(byCoder), "shuffled": file(shuffled)}
	for _, level := range []string{"nominal", "ordinal", "interval", "ratio"} {
		want := compute(t, files["unit-major"], agreement.Options{Level: level})
		a := want.Statistics.KrippendorffAlpha.Value
		if a == nil {
			t.Fatalf("%s: α undefined", level)
		}
		for _, order := range []string{"coder-major", "shuffled"} {
			got := compute(t, files[order], agreement.Options{Level: level})
			b := got.Statistics.KrippendorffAlpha.Value
			if b == nil || math.Abs(*a-*b) > 1e-12 {
				t.Errorf("%s: α %v %s, %v unit-major", level, b, order, *a)
			}
			if got.Units != want.Units || got.Ratings != want.Ratings {
				t.Errorf("%s: %d units, %d ratings %s; %d, %d unit-major", level, got.Units, got.Ratings, order, want.Units, want.Ratings)
			}
		}
	}
	// A duplicate at the end of the shuffled file names the unit's earlier
	// row, however the rows were looked up.
	in := files["shuffled"]
	lines := strings.Split(in, "\n")
	first := 2 + len(lines)/2
	dup := lines[first-1]
	unit, rest, _ := strings.Cut(dup, ",")
	coder, _, _ := strings.Cut(rest, ",")
	_, err := agreement.ReadRatings(strings.NewReader(in+dup+"\n"), "r.csv")
	wantErr := fmt.Sprintf(`r.csv:%d: duplicate rating of unit %q by coder %q (first at line %d)`, len(lines), unit, coder, first)
	if err == nil || err.Error() != wantErr {
		t.Errorf("error = %v, want %q", err, wantErr)
	}
}
