package iaa

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnitsJackknifeLeavesEachUnitOut checks the pooled jackknife against
// α computed afresh on the data with each unit removed, at every level,
// on data with missing ratings, four coders and units of one rating
// (which do not enter α and have no jackknife value of their own).
func TestUnitsJackknifeLeavesEachUnitOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	r := NewRatings(40, 4)
	for u := range 40 {
		for c := range 4 {
			v := float64(1 + rng.IntN(4))
			if rng.IntN(5) == 0 {
				v = math.NaN()
			}
			r.Set(u, c, v)
		}
	}
	for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
		c := CodedOf(r)
		_, pool := unitsReplicate(c, level)
		got := pool.jackknife(c.Values, level)
		var want []float64
		for drop := range 40 {
			sub := NewRatings(39, 4)
			for u, k := 0, 0; u < 40; u++ {
				if u == drop {
					continue
				}
				copy(sub.Unit(k), r.Unit(u))
				k++
			}
			ratings := 0
			for _, x := range r.Unit(drop) {
				if x == x {
					ratings++
				}
			}
			if ratings < 2 {
				continue // the unit does not enter α
			}
			a, err := Alpha(sub, level)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, a)
		}
		var flat []float64
		for _, w := range got {
			for range int(w.n) {
				flat = append(flat, w.x)
			}
		}
		slices.Sort(flat)
		slices.Sort(want)
		if len(flat) != len(want) {
			t.Fatalf("%v: %d jackknife values, want %d", level, len(flat), len(want))
		}
		for i := range want {
			if math.Abs(flat[i]-want[i]) > 1e-12 {
				t.Fatalf("%v: jackknife value %d = %.15f, α without that unit %.15f", level, i, flat[i], want[i])
			}
		}
	}
}

// TestBCaIntervalReducesToPercentile checks that with no bias (half the
// replicates below the estimate) and no skew (a symmetric jackknife) the
// BCa interval is the percentile interval, and that bias and
// acceleration move it the way they should: replicates mostly below the
// estimate shift both bounds up, and a positive acceleration widens the
// upper side.
func TestBCaIntervalReducesToPercentile(t *testing.T) {
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(i) / 1000
	}
	sym := []weighted{{0.4, 3}, {0.6, 3}, {0.5, 10}}
	lo, hi, ok := bcaInterval(xs, 0.4995, sym, 0.95)
	plo, phi := PercentileInterval(xs, 0.95)
	if !ok || lo != plo || hi != phi {
		t.Fatalf("no bias, no skew: BCa [%v, %v] (ok %v), percentile [%v, %v]", lo, hi, ok, plo, phi)
	}
	blo, bhi, _ := bcaInterval(xs, 0.7, sym, 0.95)
	if !(blo > lo && bhi > hi) {
		t.Errorf("estimate above 70%% of the replicates: BCa [%v, %v] should lie above [%v, %v]", blo, bhi, lo, hi)
	}
	// A long lower tail of the jackknife (θ̄ − θᵢ large and positive for
	// few units) makes a positive.
	skew := []weighted{{0.1, 1}, {0.55, 9}}
	alo, ahi, _ := bcaInterval(xs, 0.4995, skew, 0.95)
	if !(alo > lo && ahi > hi) {
		t.Errorf("positive acceleration: BCa [%v, %v] should lie above the percentile interval [%v, %v]", alo, ahi, lo, hi)
	}
	// The share below the estimate is bounded, so every replicate below
	// it still gives a finite interval within the replicates.
	if l, h, ok := bcaInterval(xs, 2, sym, 0.95); !ok || l < xs[0] || h > xs[len(xs)-1] {
		t.Errorf("estimate above every replicate: [%v, %v] ok %v", l, h, ok)
	}
}
