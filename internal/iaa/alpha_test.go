package iaa_test

import (
	"math"
	"testing"

	"annotate/internal/iaa"
)

func TestAlphaPublished(t *testing.T) {
	tests := []struct {
		name   string
		source string // where the reference value is published
		data   *iaa.Ratings
		level  iaa.Level
		want   float64
		tol    float64 // half a unit of the last published digit
	}{
		// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C.
		{"krippendorff2011/nominal", "Krippendorff 2011", krippendorff2011(), iaa.Nominal, 0.743, 5e-4},
		{"krippendorff2011/ordinal", "Krippendorff 2011", krippendorff2011(), iaa.Ordinal, 0.815, 5e-4},
		{"krippendorff2011/interval", "Krippendorff 2011", krippendorff2011(), iaa.Interval, 0.849, 5e-4},
		{"krippendorff2011/ratio", "Krippendorff 2011", krippendorff2011(), iaa.Ratio, 0.797, 5e-4},
		// irrCAC README, krippen.alpha.raw(cac.raw4raters) = 0.74342 (same data).
		{"irrCAC/raw4raters", "irrCAC krippen.alpha.raw", krippendorff2011(), iaa.Nominal, 0.74342, 5e-6},
		// irrCAC README, krippen.alpha.dist(distrib.6raters) = 0.4204384: the
		// first 15 patients of Fleiss' diagnoses.
		{"irrCAC/distrib6raters", "irrCAC krippen.alpha.dist", diagnosesRatings(15, 0, 1, 2, 3, 4, 5), iaa.Nominal, 0.4204384, 5e-8},
		// irrCAC README, krippen2.table(cont3x3abstractors) = 0.7972585.
		{"irrCAC/cont3x3abstractors", "irrCAC krippen2.table", tableRatings(cont3x3abstractors), iaa.Nominal, 0.7972585, 5e-8},
		// Wikipedia, "Krippendorff's alpha", computational example.
		{"wikipedia/nominal", "Wikipedia", wikipediaAlpha(), iaa.Nominal, 0.691, 5e-4},
		{"wikipedia/interval", "Wikipedia", wikipediaAlpha(), iaa.Interval, 0.811, 5e-4},
		// Hayes & Krippendorff (2007), Table 1 data, ordinal α = 0.7598.
		{"hayes2007/ordinal", "Hayes & Krippendorff 2007", rowsRatings(hayesKrippendorff2007), iaa.Ordinal, 0.7598, 5e-5},
		// Same data at the nominal level: 0.4765, the value pinned in the
		// test suite of the icr R package (staudtlex/icr).
		{"hayes2007/nominal", "icr test suite", rowsRatings(hayesKrippendorff2007), iaa.Nominal, 0.4765, 5e-5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := iaa.Alpha(tt.data, tt.level)
			if err != nil {
				t.Fatalf("Alpha: %v", err)
			}
			if !near(got, tt.want, tt.tol) {
				t.Errorf("Alpha(%s) = %.7f, want %v ± %g (%s)", tt.level, got, tt.want, tt.tol, tt.source)
			}
		})
	}
}

// TestAlphaSelfChecks compares alternative routes to the same α; the
// expected values are computed here, not published.
func TestAlphaSelfChecks(t *testing.T) {
	data := krippendorff2011()
	nominal, err := iaa.Alpha(data, iaa.Nominal)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("AlphaFunc/nominal", func(t *testing.T) {
		got, err := iaa.AlphaFunc(data, func(a, b float64) float64 {
			if a == b {
				return 0
			}
			return 1
		})
		if err != nil || !near(got, nominal, 1e-12) {
			t.Errorf("AlphaFunc(nominal δ) = %v, %v; want %v", got, err, nominal)
		}
	})
	t.Run("AlphaFunc/interval", func(t *testing.T) {
		want, _ := iaa.Alpha(data, iaa.Interval)
		got, err := iaa.AlphaFunc(data, func(a, b float64) float64 { return (a - b) * (a - b) })
		if err != nil || !near(got, want, 1e-12) {
			t.Errorf("AlphaFunc(interval δ) = %v, %v; want %v", got, err, want)
		}
	})
	t.Run("MASI/singletons", func(t *testing.T) {
		// Singleton sets are equal or disjoint, so MASI reduces to nominal.
		sets := iaa.NewRatings(data.Units, data.Coders)
		for i, v := range data.Values {
			if v == v {
				sets.Values[i] = iaa.SetValue(int(v))
			}
		}
		got, err := iaa.Alpha(sets, iaa.MASI)
		if err != nil || !near(got, nominal, 1e-12) {
			t.Errorf("Alpha(MASI on singletons) = %v, %v; want nominal %v", got, err, nominal)
		}
	})
	t.Run("interval/shift-invariant", func(t *testing.T) {
		// Adding a large constant must not change interval α (no cancellation).
		shifted := iaa.NewRatings(data.Units, data.Coders)
		for i, v := range data.Values {
			shifted.Values[i] = v + 1e9
		}
		want, _ := iaa.Alpha(data, iaa.Interval)
		got, err := iaa.Alpha(shifted, iaa.Interval)
		if err != nil || !near(got, want, 1e-9) {
			t.Errorf("Alpha(interval, +1e9) = %v, %v; want %v", got, err, want)
		}
	})
	t.Run("ordinal/large-codes", func(t *testing.T) {
		// Ordinal α depends only on order: map 1..5 to values beyond the
		// small-integer fast path and to negatives.
		mapped := iaa.NewRatings(data.Units, data.Coders)
		for i, v := range data.Values {
			mapped.Values[i] = v*v*1000 - 7.5
		}
		want, _ := iaa.Alpha(data, iaa.Ordinal)
		got, err := iaa.Alpha(mapped, iaa.Ordinal)
		if err != nil || !near(got, want, 1e-12) {
			t.Errorf("Alpha(ordinal, remapped) = %v, %v; want %v", got, err, want)
		}
	})
}

func TestMASIDistance(t *testing.T) {
	// Passonneau (2006): MASI = J·M, distance 1 − MASI. Expected values
	// worked by hand from that definition.
	tests := []struct {
		name string
		a, b []int
		want float64
	}{
		{"equal", []int{1, 2}, []int{1, 2}, 0},
		{"subset", []int{1}, []int{1, 2}, 1 - 0.5*2.0/3},
		{"overlap", []int{1, 2}, []int{2, 3}, 1 - 1.0/3*1.0/3},
		{"disjoint", []int{1}, []int{2}, 1},
		{"both-empty", nil, nil, 0},
		{"one-empty", nil, []int{4}, 1},
		{"high-labels", []int{0, 52}, []int{52}, 1 - 0.5*2.0/3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := iaa.MASIDistance(iaa.SetValue(tt.a...), iaa.SetValue(tt.b...))
			if !near(got, tt.want, 1e-15) {
				t.Errorf("MASIDistance(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
	if got := iaa.SetLabels(iaa.SetValue(52, 3, 0)); len(got) != 3 || got[0] != 0 || got[1] != 3 || got[2] != 52 {
		t.Errorf("SetLabels(SetValue(52,3,0)) = %v", got)
	}
}

func TestAlphaInvalidValues(t *testing.T) {
	tests := []struct {
		name  string
		level iaa.Level
		v     float64
	}{
		{"ratio/negative", iaa.Ratio, -1},
		{"masi/fraction", iaa.MASI, 1.5},
		{"interval/inf", iaa.Interval, math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := iaa.FromColumns([]float64{1, 2, tt.v}, []float64{1, 2, 3})
			_, err := iaa.Alpha(r, tt.level)
			if err == nil {
				t.Fatalf("Alpha accepted %v at %s", tt.v, tt.level)
			}
		})
	}
}
