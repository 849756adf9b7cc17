package iaa_test

import (
	"testing"

	"annotate/internal/iaa"
)

func TestManyCoderCoefficients(t *testing.T) {
	raw4, _ := iaa.CountsOf(krippendorff2011())
	dist6 := diagnosesCounts(15, 0, 1, 2, 3, 4, 5)
	tests := []struct {
		name      string
		f         func(iaa.Counts) (iaa.Coefficient, error)
		counts    iaa.Counts
		value, se float64
		tol       float64
	}{
		// irrCAC README, gwet.ac1.raw(cac.raw4raters): 0.77544, se 0.14295.
		{"ac1/raw4raters", iaa.GwetAC1, raw4, 0.77544, 0.14295, 5e-6},
		// irrCAC README, pa.coeff.raw(cac.raw4raters): 0.8181818, se 0.12561.
		{"pa/raw4raters", iaa.PercentAgreement, raw4, 0.8181818, 0.12561, 5e-6},
		// irrCAC README, gwet.ac1.dist(distrib.6raters): 0.4448007, se 0.08418757.
		{"ac1/distrib6raters", iaa.GwetAC1, dist6, 0.4448007, 0.08418757, 5e-8},
		// irrCAC README, fleiss.kappa.raw(cac.raw4raters) via the π name.
		{"scott/raw4raters", iaa.ScottPi, raw4, 0.76117, 0.15302, 5e-6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.f(tt.counts)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got.Value, tt.value, tt.tol) || !near(got.SE, tt.se, tt.tol) {
				t.Errorf("got %.8f ± %.8f, want %v ± %v (tolerance %g)", got.Value, got.SE, tt.value, tt.se, tt.tol)
			}
			if !(got.Low <= got.Value && got.Value <= got.High && got.High <= 1) {
				t.Errorf("interval [%v, %v] around %v", got.Low, got.High, got.Value)
			}
		})
	}
}

func TestTwoCoderTables(t *testing.T) {
	tests := []struct {
		name      string
		f         func([][]float64) (iaa.Coefficient, error)
		value, se float64
	}{
		// irrCAC README on cont3x3abstractors, to 7 significant digits.
		{"ac1", iaa.GwetAC1Table, 0.8493305, 0.04321747},
		{"scott", iaa.ScottPiTable, 0.7962397, 0.05905473},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.f(cont3x3abstractors)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got.Value, tt.value, 5e-8) || !near(got.SE, tt.se, 5e-9) {
				t.Errorf("got %.8f ± %.8f, want %v ± %v", got.Value, got.SE, tt.value, tt.se)
			}
		})
	}
	t.Run("pa", func(t *testing.T) {
		// irrCAC README, pa2.table(cont3x3abstractors) = 0.89.
		c, _ := iaa.CountsOf(tableRatings(cont3x3abstractors))
		got, err := iaa.PercentAgreement(c)
		if err != nil || !near(got.Value, 0.89, 1e-12) {
			t.Errorf("percent agreement = %v (%v), want 0.89", got.Value, err)
		}
	})
	t.Run("scott-table-equals-counts", func(t *testing.T) {
		// Self-check: the many-coder form of π reduces to the table form.
		c, _ := iaa.CountsOf(tableRatings(cont3x3abstractors))
		a, _ := iaa.ScottPi(c)
		b, _ := iaa.ScottPiTable(cont3x3abstractors)
		if !near(a.Value, b.Value, 1e-12) {
			t.Errorf("ScottPi = %v, ScottPiTable = %v", a.Value, b.Value)
		}
	})
}

func TestUnanimousAgreement(t *testing.T) {
	// R irr agree(diagnoses) printed "%-agree = 16.7" in a tutorial run.
	got, units, err := iaa.UnanimousAgreement(diagnosesCounts(30, 0, 1, 2, 3, 4, 5))
	if err != nil || units != 30 || !near(got, 0.167, 5e-4) {
		t.Errorf("got %v over %d units (%v), want 0.167 over 30", got, units, err)
	}
}
