package iaa_test

import (
	"errors"
	"slices"
	"testing"

	"annotate/internal/iaa"
)

func TestAlphaBootstrapHayesKrippendorff(t *testing.T) {
	data := rowsRatings(hayesKrippendorff2007)
	res, err := iaa.AlphaBootstrap(data, iaa.Ordinal, iaa.BootstrapOptions{
		Replicates: 10000, Seed: 2007, Min: []float64{0.667, 0.8},
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
