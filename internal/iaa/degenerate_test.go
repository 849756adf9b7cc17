package iaa_test

import (
	"errors"
	"math"
	"testing"

	"annotate/internal/iaa"
)

// TestDegenerate runs every statistic on data where it has no value and
// checks for an UndefinedError: never a NaN, never a panic.
func TestDegenerate(t *testing.T) {
	inputs := []struct {
		name string
		data *iaa.Ratings
	}{
		{"single-category", iaa.FromColumns([]float64{1, 1, 1}, []float64{1, 1, 1})},
		{"no-pairable-unit", iaa.FromColumns([]float64{1, na, 2}, []float64{na, 2, na})},
		{"all-missing", iaa.FromColumns([]float64{na, na}, []float64{na, na})},
		{"one-coder", iaa.FromColumns([]float64{1, 2, 3})},
		{"no-units", iaa.NewRatings(0, 3)},
		{"no-coders", iaa.NewRatings(4, 0)},
	}
	levels := []iaa.Level{iaa.Nominal, iaa.Ordinal, iaa.Interval, iaa.Ratio, iaa.MASI}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			for _, level := range levels {
				got, err := iaa.Alpha(in.data, level)
				wantUndefined(t, "Alpha "+level.String(), got, err)
				_, err = iaa.AlphaBootstrap(in.data, level, iaa.BootstrapOptions{Replicates: 10})
				wantUndefined(t, "AlphaBootstrap "+level.String(), 0, err)
			}
			c, _ := iaa.CountsOf(in.data)
			f, err := iaa.FleissKappa(c)
			wantUndefined(t, "FleissKappa", f.Kappa, err)
			for name, fn := range map[string]func(iaa.Counts) (iaa.Coefficient, error){
				"FleissKappaVarying": iaa.FleissKappaVarying, "ScottPi": iaa.ScottPi, "GwetAC1": iaa.GwetAC1,
			} {
				got, err := fn(c)
				wantUndefined(t, name, got.Value, err)
			}
			_, _, err = iaa.LightKappa(iaa.PairwiseCohen(in.data, iaa.Linear))
			wantUndefined(t, "LightKappa", 0, err)
			if in.data.Coders >= 2 {
				k, err := iaa.CohenKappa(in.data, 0, 1, iaa.Quadratic)
				wantUndefined(t, "CohenKappa", k.Value, err)
			}
		})
	}
}

func TestDegenerateZeroExpectedDisagreement(t *testing.T) {
	// Interval data whose pairable values are all equal, with one unpaired
	// different value: D_e = 0.
	r := iaa.FromColumns([]float64{5, 5, 9}, []float64{5, 5, na})
	got, err := iaa.Alpha(r, iaa.Interval)
	wantUndefined(t, "Alpha interval", got, err)
	var u *iaa.UndefinedError
	if !errors.As(err, &u) || u.Reason == "" {
		t.Errorf("error %v carries no reason", err)
	}
}

func TestDegenerateStillDefined(t *testing.T) {
	// Percent agreement is defined with a single category; AC1 too when the
	// scale has two categories and one is unused.
	c := iaa.NewCounts([][]int{{2, 0}, {2, 0}, {2, 0}})
	if pa, err := iaa.PercentAgreement(c); err != nil || pa.Value != 1 {
		t.Errorf("PercentAgreement = %v, %v; want 1", pa.Value, err)
	}
	if ac1, err := iaa.GwetAC1(c); err != nil || ac1.Value != 1 {
		t.Errorf("GwetAC1 = %v, %v; want 1", ac1.Value, err)
	}
	// Per-category Fleiss' κ of an unused category is undefined, the rest is fine.
	f, err := iaa.FleissKappa(iaa.NewCounts([][]int{{2, 0, 0}, {1, 1, 0}, {0, 2, 0}}))
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(f.PerCategory[2].Err, iaa.ErrUndefined) || f.PerCategory[0].Err != nil {
		t.Errorf("per category: %+v", f.PerCategory)
	}
}

func TestProgrammerMistakesPanic(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"ragged-table", func() { _, _ = iaa.CohenKappaTable([][]float64{{1, 2}, {3}}, nil) }},
		{"weights-shape", func() { _, _ = iaa.CohenKappaTable([][]float64{{1, 2}, {3, 4}}, iaa.Linear.Matrix(3)) }},
		{"columns-length", func() { iaa.FromColumns([]float64{1, 2}, []float64{1}) }},
		{"ragged-counts", func() { iaa.NewCounts([][]int{{1, 2}, {1}}) }},
		{"confusion-length", func() { iaa.ConfusionMatrix([]float64{1}, []float64{1, 2}) }},
		{"bad-ratings", func() { _, _ = iaa.Alpha(&iaa.Ratings{Units: 2, Coders: 2, Values: []float64{1}}, iaa.Nominal) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tt.f()
		})
	}
}

func wantUndefined(t *testing.T, what string, got float64, err error) {
	t.Helper()
	if !errors.Is(err, iaa.ErrUndefined) {
		t.Errorf("%s: err = %v, want ErrUndefined", what, err)
	}
	if math.IsNaN(got) || math.IsInf(got, 0) {
		t.Errorf("%s: value %v", what, got)
	}
}

func TestFromTriples(t *testing.T) {
	r, err := iaa.FromTriples(2, 2, []iaa.Triple{{0, 0, 1}, {0, 1, 2}, {1, 1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if r.At(0, 0) != 1 || r.At(0, 1) != 2 || !math.IsNaN(r.At(1, 0)) || r.At(1, 1) != 3 || r.Count() != 3 {
		t.Errorf("got %v", r.Values)
	}
	_, err = iaa.FromTriples(2, 2, []iaa.Triple{{0, 0, 1}, {1, 1, 3}, {0, 0, 2}})
	var dup *iaa.DuplicateError
	if !errors.As(err, &dup) || dup.First != 0 || dup.Dup != 2 {
		t.Errorf("duplicate: err = %v", err)
	}
}
