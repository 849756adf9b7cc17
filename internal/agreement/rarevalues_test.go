package agreement

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/iaa"
)

// TestRareValueCaution: the caution appears below the threshold when an
// interval it speaks of is given, names the count, and goes at the
// threshold or when no interval is given; the threshold grows with the
// ratings a unit has (20 at three, 34 at five).
func TestRareValueCaution(t *testing.T) {
	s := Statistics{FleissKappa: Statistic{Value: ptr(0.4), CI95: &[2]float64{0.1, 0.7}}}
	three := func(other int) iaa.RareCount { return iaa.RareCount{Other: other, Ratings: 90, Units: 30} }
	if c := RareValueCaution(&s, three(7)); !strings.Contains(c, "hold only 7 other") || !strings.Contains(c, "(fewer than 20)") || !strings.Contains(c, "71%") {
		t.Errorf("7 other ratings: caution %q", c)
	}
	if c := RareValueCaution(&s, three(RareValueRatings)); c != "" {
		t.Errorf("%d other ratings: caution %q", RareValueRatings, c)
	}
	if c := RareValueCaution(&Statistics{}, three(0)); c != "" { // every interval undefined
		t.Errorf("no interval: caution %q", c)
	}
	five := iaa.RareCount{Other: 30, Ratings: 150, Units: 30}
	if got := RareValueThreshold(five.PerUnit()); got != 34 {
		t.Errorf("threshold at 5 ratings a unit = %d, want 34", got)
	}
	// 30 other ratings on units of five are 18 units' worth at three:
	// flagged, with the coverage measured at 15–19.
	if c := RareValueCaution(&s, five); !strings.Contains(c, "(fewer than 34 at 5 ratings a unit)") || !strings.Contains(c, "88%") {
		t.Errorf("30 other of 150 ratings on 30 units: caution %q", c)
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
		if got := strings.Contains(text.String(), "caution: the pairable ratings hold only "+strconv.Itoa(tc.rare)+" other"); got != tc.caution {
			t.Errorf("%d ratings of the rare value: the text output's caution line present %v:\n%s", tc.rare, got, text.String())
		}
		var csvOut strings.Builder
		if err := rep.Write(&csvOut, "csv"); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(csvOut.String())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows[1:] {
			flagged := row[0] == "fleiss_kappa" || row[0] == "scott_pi" || (row[0] == "krippendorff_alpha" && row[2] != "")
			if got := row[5] != ""; got != (flagged && tc.caution) {
				t.Errorf("%d ratings of the rare value: CSV row %s has ci_caution %q", tc.rare, row[0], row[5])
			}
		}
	}
}

// TestPairCaution: a κ whose two sides hold fewer than RarePairRatings
// ratings other than the value they gave most is flagged, with the
// coverage measured at its count; from 10 it is not. Compute flags the
// pairs of a file the same way.
func TestPairCaution(t *testing.T) {
	for _, tc := range []struct {
		other float64
		want  string
	}{{3, "51%"}, {7, "78%"}, {10, ""}} {
		c := PairCaution(iaa.Kappa{Other: tc.other})
		if (c == "") != (tc.want == "") || !strings.Contains(c, tc.want) {
			t.Errorf("Other %v: caution %q, want one naming %q", tc.other, c, tc.want)
		}
	}
	// Coder a says "n" on all 12 units, b "y" on the first six and c on
	// the even ones: a with b or c holds 6 ratings other than "n"
	// (flagged), b with c 12 (not).
	var b strings.Builder
	b.WriteString("unit,coder,value\n")
	for u := range 12 {
		bv, cv := "n", "n"
		if u < 6 {
			bv = "y"
		}
		if u%2 == 0 {
			cv = "y"
		}
		b.WriteString("u" + strconv.Itoa(u) + ",a,n\nu" + strconv.Itoa(u) + ",b," + bv + "\nu" + strconv.Itoa(u) + ",c," + cv + "\n")
	}
	table, err := ReadRatings(strings.NewReader(b.String()), "pairs.csv")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compute(table, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range rep.Pairwise {
		if p.CI95 == nil {
			continue
		}
		checked++
		flagged := p.CI95Caution != ""
		if want := p.Coders != [2]string{"b", "c"}; flagged != want {
			t.Errorf("pair %v: caution %q", p.Coders, p.CI95Caution)
		}
	}
	if checked != 3 {
		t.Errorf("%d pairs with an interval, want 3", checked)
	}
}
