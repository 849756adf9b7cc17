package agreement_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
)

// TestComputeMatchesMatrix checks the sparse computation against the
// statistics of a units × coders matrix built independently from the same
// random file, which has empty values, absent rows, units nobody rated
// and units rated once. The count-based coefficients, the pairwise κ and
// the bootstrap must agree exactly; α (from the coincidence matrix instead
// of a pass over the matrix) to 1e-12.
func TestComputeMatchesMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const units, coders = 400, 6
	values := []string{"1", "2", "3", "5", "8", "2.5"}
	var b strings.Builder
	b.WriteString("unit,coder,value\n")
	type cell struct{ u, c int }
	given := map[cell]string{}
	for u := range units {
		truth := rng.IntN(len(values))
		for c := range coders {
			switch p := rng.Float64(); {
			case p < 0.3: // no row
				continue
			case p < 0.35: // an empty value
				fmt.Fprintf(&b, "u%d,c%d,\n", u, c)
				continue
			}
			v := values[truth]
			if rng.Float64() < 0.4 {
				v = values[rng.IntN(len(values))]
			}
			given[cell{u, c}] = v
			fmt.Fprintf(&b, "u%d,c%d,%s\n", u, c, v)
		}
	}
	for _, level := range []string{"nominal", "ordinal", "interval", "ratio"} {
		for _, weights := range []string{"none", "linear", "quadratic"} {
			if level == "nominal" && weights != "none" {
				continue
			}
			t.Run(level+"/"+weights, func(t *testing.T) {
				opts := agreement.Options{Level: level, Weights: weights, Bootstrap: 50, Seed: 9}
				got := compute(t, b.String(), opts)

				// The matrix: units and coders in order of first appearance
				// in the file, as the table numbers them.
				tab, err := agreement.ReadRatings(strings.NewReader(b.String()), "ratings.csv")
				if err != nil {
					t.Fatal(err)
				}
				r := iaa.NewRatings(len(tab.Units), len(tab.Coders))
				sorted := slices.Clone(values)
				slices.Sort(sorted)
				for u, unit := range tab.Units {
					for c, coder := range tab.Coders {
						ui, _ := strconv.Atoi(strings.TrimPrefix(unit, "u"))
						ci, _ := strconv.Atoi(strings.TrimPrefix(coder, "c"))
						v, ok := given[cell{ui, ci}]
						if !ok {
							continue
						}
						x, _ := strconv.ParseFloat(v, 64)
						if level == "nominal" {
							x = float64(slices.Index(sorted, v))
						}
						r.Set(u, c, x)
					}
				}
				lv, _ := iaa.ParseLevel(level)
				w, _ := iaa.ParseWeighting(weights)

				alpha, err := iaa.Alpha(r, lv)
				if err != nil {
					t.Fatal(err)
				}
				if a := *got.Statistics.KrippendorffAlpha.Value; math.Abs(a-alpha) > 1e-12 {
					t.Errorf("alpha = %v, matrix gives %v", a, alpha)
				}
				boot, err := iaa.AlphaBootstrap(r, lv, iaa.BootstrapOptions{Replicates: 50, Seed: 9, Min: []float64{0.667}})
				if err != nil {
					t.Fatal(err)
				}
				if ci := *got.Statistics.KrippendorffAlpha.CI95; ci != [2]float64{boot.Low, boot.High} {
					t.Errorf("alpha ci95 = %v, matrix gives [%v %v]", ci, boot.Low, boot.High)
				}

				counts, _ := iaa.CountsOf(r)
				f, err := iaa.FleissKappa(counts)
				if err != nil {
					t.Fatal(err)
				}
				same(t, "fleiss", got.Statistics.FleissKappa, f.Kappa, f.SE)
				for _, tc := range []struct {
					name string
					st   agreement.Statistic
					f    func(iaa.Counts) (iaa.Coefficient, error)
				}{
					{"percent", got.Statistics.PercentAgreement, iaa.PercentAgreement},
					{"scott", got.Statistics.ScottPi, iaa.ScottPi},
					{"gwet", got.Statistics.GwetAC1, iaa.GwetAC1},
				} {
					want, err := tc.f(counts)
					if err != nil {
						t.Fatal(err)
					}
					same(t, tc.name, tc.st, want.Value, want.SE)
				}

				pairs := iaa.PairwiseCohen(r, w)
				if len(got.Pairwise) != len(pairs) {
					t.Fatalf("%d pairs, matrix gives %d", len(got.Pairwise), len(pairs))
				}
				for i, p := range pairs {
					g := got.Pairwise[i]
					if g.Coders != [2]string{tab.Coders[p.A], tab.Coders[p.B]} || g.N != p.N {
						t.Errorf("pair %d: %v n=%d, matrix gives %v %v n=%d", i, g.Coders, g.N, tab.Coders[p.A], tab.Coders[p.B], p.N)
					}
					if p.Err == nil && (g.CohenKappa == nil || *g.CohenKappa != p.Kappa.Value || *g.SE != p.Kappa.SE) {
						t.Errorf("pair %v: kappa %v, matrix gives %v", g.Coders, g.CohenKappa, p.Kappa.Value)
					}
				}
			})
		}
	}
}

func same(t *testing.T, name string, st agreement.Statistic, value, se float64) {
	t.Helper()
	if st.Value == nil || *st.Value != value || *st.SE != se {
		t.Errorf("%s = %+v, matrix gives %v (se %v)", name, st, value, se)
	}
}
