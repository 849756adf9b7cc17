package iaa_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"annotate/internal/iaa"
)

// randomRatings is a units × coders matrix with a share of missing cells
// and values from a few categories.
func randomRatings(seed uint64, units, coders, cats int, missing float64) *iaa.Ratings {
	rng := rand.New(rand.NewPCG(seed, 1))
	r := iaa.NewRatings(units, coders)
	for u := range units {
		truth := rng.IntN(cats)
		for c := range coders {
			if rng.Float64() < missing {
				continue
			}
			v := truth
			if rng.Float64() < 0.3 {
				v = rng.IntN(cats)
			}
			r.Set(u, c, float64(v+1))
		}
	}
	return r
}

func sameResult(t *testing.T, what string, a float64, aErr error, b float64, bErr error) {
	t.Helper()
	if (aErr == nil) != (bErr == nil) || (aErr != nil && errors.Is(aErr, iaa.ErrUndefined) != errors.Is(bErr, iaa.ErrUndefined)) {
		t.Errorf("%s: errors %v and %v", what, aErr, bErr)
		return
	}
	if aErr == nil && !near(a, b, 1e-12) {
		t.Errorf("%s: %v and %v", what, a, b)
	}
}

func TestCodedAgreesWithMatrix(t *testing.T) {
	data := map[string]*iaa.Ratings{
		"krippendorff2011": krippendorff2011(),
		"random":           randomRatings(3, 200, 7, 5, 0.5),
		"sparse":           randomRatings(4, 300, 12, 3, 0.8),
	}
	for name, r := range data {
		c := iaa.CodedOf(r)
		for _, level := range []iaa.Level{iaa.Nominal, iaa.Ordinal, iaa.Interval, iaa.Ratio} {
			a, aErr := iaa.Alpha(r, level)
			b, bErr := iaa.AlphaCoded(c, level)
			sameResult(t, name+" α "+level.String(), a, aErr, b, bErr)
			// α without each coder against α on a copy without its column.
			without := iaa.AlphaWithout(c, level)
			for j := range r.Coders {
				rest := iaa.NewRatings(r.Units, r.Coders-1)
				for u := range r.Units {
					row := r.Unit(u)
					copy(rest.Unit(u), row[:j])
					copy(rest.Unit(u)[j:], row[j+1:])
				}
				a, aErr := iaa.Alpha(rest, level)
				sameResult(t, name+" α without a coder "+level.String(), a, aErr, without[j].Alpha, without[j].Err)
			}
		}
		for _, w := range []iaa.Weighting{iaa.Unweighted, iaa.Quadratic} {
			want := iaa.PairwiseCohen(r, w)
			got := iaa.PairwiseCohenCoded(c, w, 0, false)
			if len(got) != len(want) {
				t.Fatalf("%s: %d pairs, want %d", name, len(got), len(want))
			}
			for i := range want {
				if got[i].A != want[i].A || got[i].B != want[i].B || got[i].N != want[i].N {
					t.Errorf("%s pair %d: %+v, want %+v", name, i, got[i], want[i])
				}
				sameResult(t, name+" κ", want[i].Kappa.Value, want[i].Err, got[i].Kappa.Value, got[i].Err)
				if want[i].Err == nil && !near(got[i].Kappa.SE, want[i].Kappa.SE, 1e-12) {
					t.Errorf("%s pair %d: SE %v, want %v", name, i, got[i].Kappa.SE, want[i].Kappa.SE)
				}
			}
		}
		cc, _ := iaa.CountsOf(r)
		got := c.Counts()
		if cc.Units != got.Units || cc.Categories != got.Categories {
			t.Fatalf("%s: counts %d × %d, want %d × %d", name, got.Units, got.Categories, cc.Units, cc.Categories)
		}
		for i := range cc.N {
			if cc.N[i] != got.N[i] {
				t.Fatalf("%s: counts differ at %d", name, i)
			}
		}
	}
}

func TestCodedBuilderLastRatingWins(t *testing.T) {
	b := iaa.NewCodedBuilder(2)
	b.Add(1, 0, 3)
	b.Add(0, 1, 7)
	b.Add(1, 0, 5) // replaces 3
	b.Add(1, 1, math.NaN())
	b.Add(1, 1, 5)
	c := b.Build(3)
	r := c.Dense()
	want := [][]float64{{math.NaN(), 7}, {5, 5}, {math.NaN(), math.NaN()}}
	for u, row := range want {
		for k, v := range row {
			got := r.At(u, k)
			if !(got == v || got != got && v != v) {
				t.Errorf("(%d, %d) = %v, want %v", u, k, got, v)
			}
		}
	}
	if len(c.Values) != 2 || c.Values[0] != 5 || c.Values[1] != 7 {
		t.Errorf("values %v, want [5 7] (3 was replaced)", c.Values)
	}
}
