package agreement_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"annotate/internal/agreement"
)

// TestAlphaSameInEveryRowOrder reads the same ratings laid out unit by
// unit, coder by coder and shuffled, at every level, and expects the same
// α and the same other statistics, pairwise κ included (to 1e-12: sums
// may be taken in another order). 30,000 units × 3 coders make enough rows, one per group when not
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
				t.Errorf("%s: α %v %s, %v unit-major", level, *b, order, *a)
			}
			if got.Units != want.Units || got.Ratings != want.Ratings {
				t.Errorf("%s: %d units, %d ratings %s; %d, %d unit-major", level, got.Units, got.Ratings, order, want.Units, want.Ratings)
			}
			sameReport(t, level+" "+order, got, want)
		}
	}
	// Four coders, one more than a unit's record holds inline.
	const wide = 4
	var four []string
	for u := range 20_000 {
		for c := range wide {
			v := ""
			if (u+c)%13 != 0 {
				v = fmt.Sprint((u*(c+1)+u/7)%5 + 1)
			}
			four = append(four, fmt.Sprintf("unit-%05d,coder%d,%s\n", u, c, v))
		}
	}
	wideFile := func() string { return "unit,coder,value\n" + strings.Join(four, "") }
	want := compute(t, wideFile(), agreement.Options{Level: "ordinal"})
	rng.Shuffle(len(four), func(i, j int) { four[i], four[j] = four[j], four[i] })
	sameReport(t, "four coders shuffled", compute(t, wideFile(), agreement.Options{Level: "ordinal"}), want)

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

// sameReport compares two reports' statistics and pairwise κ (by pair of
// coder names, which may be listed in another order), numbers to 1e-12.
func sameReport(t *testing.T, label string, got, want *agreement.Report) {
	t.Helper()
	generic := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var g any
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	if d := diff(generic(got.Statistics), generic(want.Statistics)); d != "" {
		t.Errorf("%s: statistics differ: %s", label, d)
	}
	pairs := func(r *agreement.Report) map[string]any {
		m := map[string]any{}
		for _, p := range r.Pairwise {
			slices.Sort(p.Coders[:])
			m[p.Coders[0]+"|"+p.Coders[1]] = generic(p)
		}
		return m
	}
	if d := diff(generic(pairs(got)), generic(pairs(want))); d != "" {
		t.Errorf("%s: pairwise κ differ: %s", label, d)
	}
}

// diff describes the first difference between two decoded JSON values,
// numbers equal to 1e-12 (relative), "" when there is none.
func diff(a, b any) string {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return fmt.Sprintf("%v vs %v", a, b)
		}
		for k, v := range a {
			if d := diff(v, bm[k]); d != "" {
				return k + ": " + d
			}
		}
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return fmt.Sprintf("%v vs %v", a, b)
		}
		for i := range a {
			if d := diff(a[i], bs[i]); d != "" {
				return fmt.Sprint(i) + ": " + d
			}
		}
	case float64:
		bf, ok := b.(float64)
		if !ok || math.Abs(a-bf) > 1e-12*max(1, math.Abs(a)) {
			return fmt.Sprintf("%v vs %v", a, b)
		}
	default:
		if a != b {
			return fmt.Sprintf("%v vs %v", a, b)
		}
	}
	return ""
}
