package iaa_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"annotate/internal/iaa"
)

// TestBCaAgainstNaiveBootstrap computes the BCa interval of α the plain
// way (draw unit indexes with replacement, α on each resample by
// iaa.Alpha, the jackknife by iaa.Alpha on the data with each unit
// removed, Efron's formulas) on 40 units of 3 coders where one value is
// rare, and checks that AlphaBootstrap's interval, from pooled
// multinomial draws and a pooled jackknife, agrees within Monte Carlo
// error; and that on these data the BCa interval is not the percentile
// interval, so the comparison tells them apart.
func TestBCaAgainstNaiveBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	const units = 40
	rows := make([][3]float64, units)
	for u := range rows {
		truth := 0.0
		if u%8 == 0 {
			truth = 1
		}
		for c := range 3 {
			rows[u][c] = truth
			if rng.Float64() < 0.08 {
				rows[u][c] = 1 - truth
			}
		}
	}
	alphaOf := func(rs [][3]float64) float64 {
		r := iaa.NewRatings(len(rs), 3)
		for u, row := range rs {
			for c, v := range row {
				r.Set(u, c, v)
			}
		}
		a, err := iaa.Alpha(r, iaa.Nominal)
		if err != nil {
			return math.NaN()
		}
		return a
	}
	est := alphaOf(rows)
	var reps []float64
	sample := make([][3]float64, units)
	for range 8000 {
		for i := range sample {
			sample[i] = rows[rng.IntN(units)]
		}
		if a := alphaOf(sample); a == a {
			reps = append(reps, a)
		}
	}
	slices.Sort(reps)
	below := 0.0
	for _, x := range reps {
		switch {
		case x < est:
			below++
		case x == est:
			below += 0.5
		}
	}
	phi := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
	phiInv := func(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }
	z0 := phiInv(below / float64(len(reps)))
	var jack []float64
	for drop := range rows {
		rest := slices.Concat(rows[:drop], rows[drop+1:])
		if a := alphaOf(rest); a == a {
			jack = append(jack, a)
		}
	}
	mean := 0.0
	for _, x := range jack {
		mean += x / float64(len(jack))
	}
	var num, den float64
	for _, x := range jack {
		num += math.Pow(mean-x, 3)
		den += math.Pow(mean-x, 2)
	}
	acc := num / (6 * math.Pow(den, 1.5))
	bound := func(p float64) float64 {
		z := z0 + phiInv(p)
		q := phi(z0 + z/(1-acc*z))
		return reps[min(int(q*float64(len(reps))), len(reps)-1)]
	}
	lo, hi := bound(0.025), bound(0.975)

	r := iaa.NewRatings(units, 3)
	for u, row := range rows {
		for c, v := range row {
			r.Set(u, c, v)
		}
	}
	got, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{Replicates: 20000, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	pct, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{Replicates: 20000, Seed: 5, Percentile: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("α %.4f; naive BCa [%.4f, %.4f] (z0 %.3f, a %.4f); AlphaBootstrap BCa [%.4f, %.4f]; percentile [%.4f, %.4f]",
		est, lo, hi, z0, acc, got.Low, got.High, pct.Low, pct.High)
	if got.Interval != iaa.IntervalBCa || math.Abs(got.Alpha-est) > 1e-12 {
		t.Fatalf("got %+v", got)
	}
	if math.Abs(got.Low-lo) > 0.03 || math.Abs(got.High-hi) > 0.03 {
		t.Errorf("BCa [%.4f, %.4f], the naive bootstrap gives [%.4f, %.4f]", got.Low, got.High, lo, hi)
	}
	if math.Abs(got.Low-pct.Low) < 0.03 && math.Abs(got.High-pct.High) < 0.03 {
		t.Errorf("BCa [%.4f, %.4f] within 0.03 of the percentile interval [%.4f, %.4f]: the data do not tell the methods apart", got.Low, got.High, pct.Low, pct.High)
	}
}
