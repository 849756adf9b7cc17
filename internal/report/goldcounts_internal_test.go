package report

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"annotate/internal/iaa"
)

// TestGoldCountsAsLists checks the counted comparison with gold against
// the same pairs kept as two lists and given to iaa's ConfusionMatrix and
// Cohen's κ, the way the report computed them before: gold values that no
// rating has (below, between and above the ratings' values), coders
// without gold, and both the dense tables and the per-coder maps.
func TestGoldCountsAsLists(t *testing.T) {
	for _, tc := range []struct {
		name   string
		coders int
		values []float64 // the ratings' values, ascending
		golds  []float64 // gold values, some not among values
		scale  string
	}{
		{"binary, dense", 3, []float64{0, 1}, []float64{0, 1}, scaleNominal},
		{"gold outside the ratings", 5, []float64{1, 2, 4}, []float64{0, 1, 2, 3, 4, 5}, scaleOrdinal},
		{"many coders, maps", 300, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64}, []float64{0.5, 3, 7, 65}, scaleInterval},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(tc.name)), 3))
			units := 4000
			rt := ratings{c: &iaa.Coded{Coders: tc.coders, Values: tc.values}, gold: make([]float64, units)}
			for u := range rt.gold {
				rt.gold[u] = nan
				if rng.IntN(4) > 0 {
					rt.gold[u] = tc.golds[rng.IntN(len(tc.golds))]
				}
			}
			gc := newGoldCodes(rt)
			counts := newGoldCounts(tc.coders, len(gc.values))
			if wantDense := tc.coders < 100; (counts.dense != nil) != wantDense {
				t.Fatalf("dense tables %v, want %v", counts.dense != nil, wantDense)
			}
			ref := make([][]float64, tc.coders)
			lab := make([][]float64, tc.coders)
			for u, g := range rt.gold {
				if g != g {
					if gc.unit[u] != -1 {
						t.Fatalf("unit %d without gold has code %d", u, gc.unit[u])
					}
					continue
				}
				if gc.values[gc.unit[u]] != g {
					t.Fatalf("unit %d: gold %v coded as %v", u, g, gc.values[gc.unit[u]])
				}
				for range 1 + rng.IntN(3) {
					cd := rng.IntN(tc.coders - 1) // the last coder has no gold
					x := int32(rng.IntN(len(tc.values)))
					counts.add(int32(cd), gc.unit[u], gc.rating[x], 1)
					ref[cd] = append(ref[cd], g)
					lab[cd] = append(lab[cd], tc.values[x])
				}
			}
			s := &spec{name: "d", scale: tc.scale, positive: -1}
			for cd := range tc.coders {
				conf := counts.confusion(cd, gc.values)
				want := iaa.ConfusionMatrix(ref[cd], lab[cd])
				if !slices.Equal(conf.Categories, want.Categories) || conf.N != want.N || fmt.Sprint(conf.Counts) != fmt.Sprint(want.Counts) {
					t.Fatalf("coder %d: confusion %+v, want %+v", cd, conf, want)
				}
				got := goldAgreement(s, conf)
				if got.N != len(ref[cd]) {
					t.Fatalf("coder %d: N %d, want %d", cd, got.N, len(ref[cd]))
				}
				if len(ref[cd]) == 0 {
					if got.Kappa.Undefined == "" {
						t.Fatalf("coder %d without gold has κ %v", cd, got.Kappa)
					}
					continue
				}
				k, err := iaa.CohenKappa(iaa.FromColumns(ref[cd], lab[cd]), 0, 1, s.weights())
				gotJ, _ := json.Marshal(got.Kappa)
				wantJ, _ := json.Marshal(kappaStatistic(k, err))
				if string(gotJ) != string(wantJ) {
					t.Fatalf("coder %d: κ %s, want %s", cd, gotJ, wantJ)
				}
			}
		})
	}
}

// TestGoldCodesNumberValuesAndGold: the codes a coder is compared with
// gold on are the ratings' values and the gold's, distinct and ascending,
// gold values no rating has included; units without gold get -1.
func TestGoldCodesNumberValuesAndGold(t *testing.T) {
	nan := math.NaN()
	rt := ratings{c: &iaa.Coded{Values: []float64{0, 2}}, gold: []float64{nan, 1, 1, 2, 3, nan, 0, 3, 1}}
	g := newGoldCodes(rt)
	if want := []float64{0, 1, 2, 3}; !slices.Equal(g.values, want) {
		t.Fatalf("values %v, want %v", g.values, want)
	}
	if want := []int32{0, 2}; !slices.Equal(g.rating, want) {
		t.Fatalf("rating codes %v, want %v", g.rating, want)
	}
	if want := []int32{-1, 1, 1, 2, 3, -1, 0, 3, 1}; !slices.Equal(g.unit, want) {
		t.Fatalf("unit codes %v, want %v", g.unit, want)
	}
}
