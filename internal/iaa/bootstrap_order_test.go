package iaa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"annotate/internal/iaa"
)

// TestAlphaBootstrapOrderFree builds the same ratings with the units in
// two orders and expects the same interval from the same seed (to
// rounding), for coded values and for continuous ones (more distinct
// values than are coded), with both methods.
func TestAlphaBootstrapOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, tc := range []struct {
		name   string
		level  iaa.Level
		values func() float64
	}{
		{"nominal", iaa.Nominal, func() float64 { return float64(rng.IntN(4)) }},
		{"interval continuous", iaa.Interval, func() float64 { return rng.Float64() * 100 }},
	} {
		const units, coders = 1500, 3
		r := iaa.NewRatings(units, coders)
		for u := range units {
			base := tc.values()
			for c := range coders {
				v := base
				if rng.IntN(3) == 0 {
					v = tc.values()
				}
				if rng.IntN(10) == 0 {
					v = math.NaN()
				}
				r.Set(u, c, v)
			}
		}
		perm := rng.Perm(units)
		shuffled := iaa.NewRatings(units, coders)
		for u, p := range perm {
			copy(shuffled.Unit(u), r.Unit(p))
		}
		for _, m := range []iaa.BootstrapMethod{iaa.BootstrapUnits, iaa.BootstrapPairs} {
			opt := iaa.BootstrapOptions{Replicates: 400, Seed: 17, Method: m}
			a, err := iaa.AlphaBootstrap(r, tc.level, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, err := iaa.AlphaBootstrap(shuffled, tc.level, opt)
			if err != nil {
				t.Fatal(err)
			}
			// The same draws; the sums behind α may differ in the last
			// bits with the order they are added in.
			near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12 }
			if !near(a.Low, b.Low) || !near(a.High, b.High) || !near(a.Alpha, b.Alpha) {
				t.Errorf("%s, %s: [%v, %v] in one order, [%v, %v] in another", tc.name, m, a.Low, a.High, b.Low, b.High)
			}
		}
	}
}
