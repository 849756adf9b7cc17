package agreement

import (
	"strconv"
	"strings"
	"testing"
)

// TestRareValueCaution: the caution appears below RareValueRatings when
// an interval it speaks of is given, names the count, and goes at 20 or
// when no interval is given.
func TestRareValueCaution(t *testing.T) {
	s := Statistics{FleissKappa: Statistic{Value: ptr(0.4), CI95: &[2]float64{0.1, 0.7}}}
	if c := RareValueCaution(&s, 7); !strings.Contains(c, "only 7 pairable ratings differ") || !strings.Contains(c, "71%") {
		t.Errorf("7 other ratings: caution %q", c)
	}
	if c := RareValueCaution(&s, RareValueRatings); c != "" {
		t.Errorf("%d other ratings: caution %q", RareValueRatings, c)
	}
	if c := RareValueCaution(&Statistics{}, 0); c != "" { // every interval undefined
		t.Errorf("no interval: caution %q", c)
	}
}

// TestComputeCautionsOnRareValues runs Compute on a file where one value
// is given 4 times in 90 ratings and on one where it is given 30 times.
func TestComputeCautionsOnRareValues(t *testing.T) {
	for _, tc := range []struct {
		rare    int
		caution bool
	}{{4, true}, {30, false}} {
		var b strings.Builder
		b.WriteString("unit,coder,value\n")
		given := 0
		for u := range 30 {
			for c := range 3 {
				v := "a"
				if given < tc.rare && (u*3+c)%3 == u%3 {
					v = "b"
					given++
				}
				b.WriteString("u" + strconv.Itoa(u) + ",c" + strconv.Itoa(c) + "," + v + "\n")
			}
		}
		table, err := ReadRatings(strings.NewReader(b.String()), "rare.csv")
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Compute(table, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.IntervalCaution != ""; got != tc.caution {
			t.Errorf("%d ratings of the rare value: caution %q", tc.rare, rep.IntervalCaution)
		}
		var text strings.Builder
		if err := rep.Write(&text, "text"); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text.String(), "caution: only "+strconv.Itoa(tc.rare)+" pairable ratings differ"); got != tc.caution {
			t.Errorf("%d ratings of the rare value: the text output's caution line present %v:\n%s", tc.rare, got, text.String())
		}
	}
}
