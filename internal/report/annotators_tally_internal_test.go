package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"annotate/internal/iaa"
)

// TestRestTalliedSameAsByUnit checks that tallying units of at most three
// ratings gives every annotator's figures against the rest and against
// gold, and their disagreement patterns, exactly as the pass unit by
// unit: with and without gold, gold the annotators made, units without
// gold, of one, two and three ratings, gold values no rating has, one
// value and five; and that a unit of four ratings, or sets of labels,
// take the pass unit by unit.
func TestRestTalliedSameAsByUnit(t *testing.T) {
	for _, tc := range []struct {
		name           string
		coders, values int
		perUnit        int
		gold, derived  bool
	}{
		{"binary, three a unit, no gold", 3, 2, 3, false, false},
		{"three values, gold some derived", 5, 3, 3, true, true},
		{"five values, two a unit, gold", 8, 5, 2, true, false},
		{"one value, gold derived", 3, 1, 3, true, true},
		{"many coders, sparse", 40, 3, 3, true, true},
	} {
		rt := restRatings(tc.name, tc.coders, tc.values, tc.perUnit, 3000, tc.gold, tc.derived)
		byTally := restJSON(t, rt)
		restByTally = false
		byUnit := restJSON(t, rt)
		restByTally = true
		if byTally != byUnit {
			t.Errorf("%s:\ntallied %.2000s\nby unit %.2000s", tc.name, byTally, byUnit)
		}
		if !restTallied(rt, newGoldCodes(rt), newGoldCounts(rt.c.Coders, 8), make([]coderTally, rt.c.Coders)) {
			t.Errorf("%s: not tallied", tc.name)
		}
	}
	four := restRatings("four", 5, 3, 4, 500, true, false)
	tallies := make([]coderTally, 5)
	if restTallied(four, newGoldCodes(four), newGoldCounts(5, 8), tallies) {
		t.Error("units of four ratings tallied")
	}
	for j := range tallies {
		if tl := &tallies[j]; tl.agreed != nil || tl.plural != 0 || tl.independent+tl.leaveOneOut+tl.unscored != 0 {
			t.Errorf("refused, but coder %d's tally was written: %+v", j, *tl)
		}
	}
}

// restRatings makes ratings of units by up to perUnit of coders coders
// (some left out), mostly agreeing, with gold on most units when gold is
// set (some of it a value no rating has, some derived when derived is).
func restRatings(name string, coders, values, perUnit, units int, gold, derived bool) ratings {
	rng := rand.New(rand.NewPCG(uint64(len(name)), 11))
	b := iaa.NewCodedBuilder(coders)
	rt := ratings{spec: &spec{name: "d", level: LevelSentence, scale: scaleNominal, positive: -1}}
	if gold {
		rt.gold = make([]float64, units)
		if derived {
			rt.derived = make([]bool, units)
		}
	}
	for u := range units {
		truth := rng.IntN(values)
		first := rng.IntN(coders)
		for i := range perUnit {
			if rng.IntN(6) == 0 {
				continue
			}
			v := truth
			if rng.IntN(4) == 0 {
				v = rng.IntN(values)
			}
			b.Add(u, (first+i)%coders, float64(v))
		}
		if gold {
			rt.gold[u] = nan
			switch rng.IntN(5) {
			case 0:
			case 1:
				rt.gold[u] = float64(values + 1) // no rating has it
			default:
				rt.gold[u] = float64(truth)
			}
			if derived && rng.IntN(3) == 0 {
				rt.derived[u] = true
			}
		}
	}
	rt.c = b.Build(units)
	return rt
}

// restJSON is againstRest's figures and patterns for rt as JSON, which
// writes every number exactly.
func restJSON(t *testing.T, rt ratings) string {
	ads, pats := againstRest(rt)
	b, err := json.Marshal(struct {
		A []AnnotatorDimension
		P [][]DisagreementPattern
	}{ads, pats})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSharesStatisticAsList checks the agreement with the rest computed
// from counted shares against meanStatistic of the same shares listed
// one by one, to rounding.
func TestSharesStatisticAsList(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var tl coderTally
	var list []float64
	for range 5000 {
		d := 1 + rng.IntN(6)
		a := rng.IntN(d + 1)
		tl.agree(d, a, 1)
		list = append(list, float64(a)/float64(d))
	}
	got, want := sharesStatistic(tl.agreed, "none"), meanStatistic(list, "none")
	if *got.NUnits != *want.NUnits || math.Abs(*got.Value-*want.Value) > 1e-12 || math.Abs(*got.SE-*want.SE) > 1e-12 ||
		math.Abs(got.CI95[0]-want.CI95[0]) > 1e-12 || math.Abs(got.CI95[1]-want.CI95[1]) > 1e-12 {
		t.Errorf("counted %v ± %v (%d), listed %v ± %v (%d)", *got.Value, *got.SE, *got.NUnits, *want.Value, *want.SE, *want.NUnits)
	}
	if st := sharesStatistic(nil, "none"); st.Undefined != "none" {
		t.Errorf("no shares: %+v", st)
	}
}
