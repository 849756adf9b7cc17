package iaa_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"annotate/internal/iaa"
)

func TestAlphaBootstrapHayesKrippendorff(t *testing.T) {
	data := rowsRatings(hayesKrippendorff2007)
	res, err := iaa.AlphaBootstrap(data, iaa.Ordinal, iaa.BootstrapOptions{
		Replicates: 10000, Seed: 2007, Min: []float64{0.667, 0.8}, Method: iaa.BootstrapPairs,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Hayes & Krippendorff (2007) describe resampling "239 pairs of
	// judgments" for these data: the within-unit pairs.
	if res.Draws != 239 {
		t.Errorf("draws per replicate = %d, want 239 (Hayes & Krippendorff 2007)", res.Draws)
	}
	if !near(res.Alpha, 0.7598, 5e-5) {
		t.Errorf("α = %.5f, want 0.7598", res.Alpha)
	}
	// Self-checks, not published values: the interval brackets α, and
	// P(α < 0.667) < P(α < 0.8).
	if !(res.Low < res.Alpha && res.Alpha < res.High) || res.High > 1 {
		t.Errorf("95%% interval [%v, %v] does not bracket α = %v", res.Low, res.High, res.Alpha)
	}
	if len(res.PBelow) != 2 || !(res.PBelow[0] < res.PBelow[1]) {
		t.Errorf("PBelow = %v, want increasing in the minimum", res.PBelow)
	}
}

func TestAlphaBootstrapReproducible(t *testing.T) {
	data := krippendorff2011()
	opt := iaa.BootstrapOptions{Replicates: 999, Seed: 42, Min: []float64{0.667, 0.8}}
	var first iaa.AlphaBoot
	for i, workers := range []int{1, 2, 3, 8} {
		opt.Workers = workers
		got, err := iaa.AlphaBootstrap(data, iaa.Interval, opt)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = got
			continue
		}
		if got.Low != first.Low || got.High != first.High || !slices.Equal(got.PBelow, first.PBelow) {
			t.Errorf("workers=%d: %+v, workers=1: %+v", workers, got, first)
		}
	}
	opt.Seed = 43
	other, _ := iaa.AlphaBootstrap(data, iaa.Interval, opt)
	if other.Low == first.Low && other.High == first.High && slices.Equal(other.PBelow, first.PBelow) {
		t.Errorf("seeds 42 and 43 gave identical summaries")
	}
}

func TestAlphaBootstrapCentred(t *testing.T) {
	// Self-check of the resampling weights: with many replicates the middle
	// of the distribution sits at α, for every level and for units with
	// different numbers of ratings.
	for _, level := range []iaa.Level{iaa.Nominal, iaa.Ordinal, iaa.Interval, iaa.Ratio} {
		t.Run(level.String(), func(t *testing.T) {
			res, err := iaa.AlphaBootstrap(krippendorff2011(), level, iaa.BootstrapOptions{
				Replicates: 20000, Seed: 7, Confidence: 0.01,
			})
			if err != nil {
				t.Fatal(err)
			}
			mid := (res.Low + res.High) / 2
			if !near(mid, res.Alpha, 0.03) {
				t.Errorf("median ≈ %v, α = %v", mid, res.Alpha)
			}
		})
	}
}

func TestAlphaBootstrapPerfectAgreement(t *testing.T) {
	r := iaa.FromColumns([]float64{1, 2, 3, 1}, []float64{1, 2, 3, 1})
	res, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{Replicates: 100, Min: []float64{0.8}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Alpha != 1 || res.Low != 1 || res.High != 1 || res.PBelow[0] != 0 {
		t.Errorf("got %+v, want α = 1 with a degenerate interval", res)
	}
}

func TestAlphaBootstrapErrors(t *testing.T) {
	if _, err := iaa.AlphaBootstrap(krippendorff2011(), iaa.Nominal, iaa.BootstrapOptions{}); err == nil {
		t.Error("zero replicates accepted")
	}
	one := iaa.FromColumns([]float64{1, 2, 3})
	if _, err := iaa.AlphaBootstrap(one, iaa.Nominal, iaa.BootstrapOptions{Replicates: 10}); !errors.Is(err, iaa.ErrUndefined) {
		t.Errorf("one coder: err = %v, want ErrUndefined", err)
	}
}

func TestAlphaBootstrapMethodsReproducible(t *testing.T) {
	for _, m := range []iaa.BootstrapMethod{iaa.BootstrapUnits, iaa.BootstrapPairs} {
		t.Run(m.String(), func(t *testing.T) {
			opt := iaa.BootstrapOptions{Replicates: 500, Seed: 9, Method: m, Min: []float64{0.8}}
			var first iaa.AlphaBoot
			for i, workers := range []int{1, 3} {
				opt.Workers = workers
				got, err := iaa.AlphaBootstrap(krippendorff2011(), iaa.Ordinal, opt)
				if err != nil {
					t.Fatal(err)
				}
				if got.Method != m {
					t.Errorf("Method = %v, want %v", got.Method, m)
				}
				if i == 0 {
					first = got
				} else if got.Low != first.Low || got.High != first.High || got.PBelow[0] != first.PBelow[0] {
					t.Errorf("workers=%d: %+v, workers=1: %+v", workers, got, first)
				}
			}
		})
	}
}

// TestAlphaBootstrapPairsMatchesSingleDraws checks the pooled multinomial
// draw of the pairs bootstrap against the definition: M single draws of a
// pair with probability 2/((m_u−1)n), δ² summed. Both interval ends must
// agree within Monte Carlo error.
func TestAlphaBootstrapPairsMatchesSingleDraws(t *testing.T) {
	r := krippendorff2011()
	const reps = 4000
	res, err := iaa.AlphaBootstrap(r, iaa.Interval, iaa.BootstrapOptions{Replicates: reps, Seed: 5, Method: iaa.BootstrapPairs})
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ w, d float64 }
	var pairs []pair
	n := 0
	for u := range r.Units {
		m := 0
		for _, v := range r.Unit(u) {
			if v == v {
				m++
			}
		}
		if m >= 2 {
			n += m
		}
	}
	total := 0.0
	for u := range r.Units {
		var vals []float64
		for _, v := range r.Unit(u) {
			if v == v {
				vals = append(vals, v)
			}
		}
		m := len(vals)
		if m < 2 {
			continue
		}
		for i := range vals {
			for j := i + 1; j < m; j++ {
				w := 2 / (float64(m-1) * float64(n))
				pairs = append(pairs, pair{w, (vals[i] - vals[j]) * (vals[i] - vals[j])})
				total += w
			}
		}
	}
	a, _ := iaa.Alpha(r, iaa.Interval)
	// D_e from α and D_o: α = 1 − D_o/D_e, D_o = Σ w δ² (weights sum to 1).
	do := 0.0
	for _, p := range pairs {
		do += p.w * p.d
	}
	de := do / (1 - a)
	rng := rand.New(rand.NewPCG(1, 2))
	naive := make([]float64, reps)
	for k := range naive {
		s := 0.0
		for range len(pairs) {
			x := rng.Float64() * total
			i := 0
			for x > pairs[i].w && i < len(pairs)-1 {
				x -= pairs[i].w
				i++
			}
			s += pairs[i].d
		}
		naive[k] = 1 - s/float64(len(pairs))/de
	}
	slices.Sort(naive)
	lo, hi := naive[reps/40], naive[reps-reps/40-1]
	if !near(res.Low, lo, 0.04) || !near(res.High, hi, 0.04) {
		t.Errorf("pooled draws give [%.3f, %.3f], single draws [%.3f, %.3f]", res.Low, res.High, lo, hi)
	}
}

func TestAlphaBootstrapUnitsSingleKind(t *testing.T) {
	// Every unit alike: each replicate draws the same data, so the
	// interval is α itself.
	r := iaa.FromColumns([]float64{1, 1, 1, 1}, []float64{2, 2, 2, 2}, []float64{1, 1, 1, 1})
	res, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{Replicates: 50})
	if err != nil {
		t.Fatal(err)
	}
	if !near(res.Low, res.Alpha, 1e-12) || !near(res.High, res.Alpha, 1e-12) || res.Draws != 4 {
		t.Errorf("got %+v, want the interval [α, α] from 4 units", res)
	}
}

func TestSingleUnitUndefined(t *testing.T) {
	// One unit says nothing about agreement (issue: −1 was reported).
	r := iaa.FromColumns([]float64{1}, []float64{2}, []float64{1})
	_, err := iaa.Alpha(r, iaa.Nominal)
	wantUndefined(t, "Alpha", 0, err)
	_, err = iaa.AlphaCoded(iaa.CodedOf(r), iaa.Nominal)
	wantUndefined(t, "AlphaCoded", 0, err)
	c, _ := iaa.CountsOf(r)
	_, err = iaa.FleissKappa(c)
	wantUndefined(t, "FleissKappa", 0, err)
	_, err = iaa.GwetAC1(c)
	wantUndefined(t, "GwetAC1", 0, err)
	_, err = iaa.CohenKappa(r, 0, 1, iaa.Unweighted)
	wantUndefined(t, "CohenKappa", 0, err)
}
