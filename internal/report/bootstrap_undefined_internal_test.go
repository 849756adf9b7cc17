package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
)

// rareRatings is 30 units rated by two coders, all "0" but for the first
// odd units, rated "0" and "1".
func rareRatings(odd int) ratings {
	b := iaa.NewCodedBuilder(2)
	for u := range 30 {
		b.Add(u, 0, 0)
		v := 0.0
		if u < odd {
			v = 1
		}
		b.Add(u, 1, v)
	}
	return ratings{spec: &spec{name: "d", level: LevelSentence, scale: scaleNominal, positive: -1}, c: b.Build(30)}
}

// TestBootstrapUndefinedReplicatesCounted checks that α's interval says
// how many replicates it rests on. A units replicate draws 30 of the 30
// units with replacement, and α is undefined on it when it draws none of
// the units holding a "1": with k such units that happens with probability
// (1 − k/30)^30, 0.3616 for k = 1 and 0.0137 for k = 4. The number left out
// must lie within six binomial standard deviations of 1000 times that, the
// number used must be the rest, and every output (JSON, text, CSV) must
// give those numbers; past 5% left out the interval is withheld.
func TestBootstrapUndefinedReplicatesCounted(t *testing.T) {
	for _, tc := range []struct {
		odd      int
		withheld bool
	}{{1, true}, {4, false}} {
		t.Run(fmt.Sprint(tc.odd), func(t *testing.T) {
			const drawn = 1000
			p := math.Pow(1-float64(tc.odd)/30, 30)
			s, _ := statistics(rareRatings(tc.odd), bootstrap{replicates: drawn, seed: 1, method: iaa.BootstrapUnits, workers: 1})
			a := s.KrippendorffAlpha
			if a.Value == nil || a.Bootstrap == nil || a.BootstrapUndefined == nil {
				t.Fatalf("alpha = %+v, want a value with the replicates used and left out", a)
			}
			used, left := *a.Bootstrap, *a.BootstrapUndefined
			sd := math.Sqrt(drawn * p * (1 - p))
			if math.Abs(float64(left)-drawn*p) > 6*sd {
				t.Errorf("%d replicates left out, want about %.1f (sd %.1f)", left, drawn*p, sd)
			}
			if used+left != drawn {
				t.Errorf("%d used + %d left out, want %d", used, left, drawn)
			}
			if got := a.CI95 == nil && a.PBelowMin == nil && a.CI95Withheld != ""; got != tc.withheld {
				t.Errorf("interval withheld = %v (ci %v, reason %q), want %v", got, a.CI95, a.CI95Withheld, tc.withheld)
			}
			rep := &Report{Project: "p", Bootstrap: drawn, BootstrapMethod: "units",
				Dimensions: []Dimension{{Name: "d", Level: LevelSentence, Scale: "nominal", Units: 30, Pairable: 30, Ratings: 60, Statistics: s}}}

			js, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{fmt.Sprintf(`"bootstrap":%d,"bootstrap_undefined":%d`, used, left)} {
				if !bytes.Contains(js, []byte(want)) {
					t.Errorf("JSON lacks %s:\n%s", want, js)
				}
			}

			var text bytes.Buffer
			if err := rep.Write(&text, "text"); err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("(%d of %d replicates)", used, drawn)
			if tc.withheld {
				want = fmt.Sprintf("(no interval: alpha undefined on %d of %d replicates)", left, drawn)
			}
			if !strings.Contains(text.String(), want) {
				t.Errorf("text lacks %q:\n%s", want, text.String())
			}

			var out bytes.Buffer
			if err := rep.WriteCSV(&out, "dimensions"); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&out).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			cell := map[string]string{}
			for i, h := range rows[0] {
				cell[h] = rows[1][i]
			}
			if cell["krippendorff_alpha_replicates"] != fmt.Sprint(used) || cell["krippendorff_alpha_replicates_undefined"] != fmt.Sprint(left) ||
				(cell["krippendorff_alpha_ci_withheld"] != "") != tc.withheld || (cell["krippendorff_alpha_ci_low"] == "") != tc.withheld {
				t.Errorf("CSV row %v", cell)
			}
		})
	}
}

// TestAlphaBootStatisticThreshold checks the rule at its edge: 50 of 1000
// replicates left out (5%) keeps the interval, 51 withholds it.
func TestAlphaBootStatisticThreshold(t *testing.T) {
	for _, tc := range []struct {
		undefined int
		withheld  bool
	}{{0, false}, {50, false}, {51, true}} {
		b := iaa.AlphaBoot{Alpha: 0.5, Low: 0.2, High: 0.7, PBelow: []float64{0.9}, Replicates: 1000 - tc.undefined, Undefined: tc.undefined}
		st := agreement.AlphaBootStatistic(b, minAlpha)
		if (st.CI95 == nil) != tc.withheld || (st.CI95Withheld != "") != tc.withheld || *st.Bootstrap != 1000-tc.undefined {
			t.Errorf("%d undefined: %+v", tc.undefined, st)
		}
	}
}
