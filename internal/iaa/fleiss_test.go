package iaa_test

import (
	"testing"

	"annotate/internal/iaa"
)

func TestFleissKappaPublished(t *testing.T) {
	tests := []struct {
		name   string
		source string
		counts iaa.Counts
		want   float64
		tol    float64
		z      float64 // 0: not published
		ztol   float64
	}{
		// Wikipedia, "Fleiss' kappa", worked example: κ = 0.210.
		{"wikipedia", "Wikipedia", iaa.NewCounts(wikipediaFleiss), 0.210, 5e-4, 0, 0},
		// R irr kappam.fleiss(diagnoses): 0.4302445, z = 17.65183 (as pinned
		// in statsmodels' test_inter_rater.py).
		{"irr/diagnoses", "irr kappam.fleiss", diagnosesCounts(30, 0, 1, 2, 3, 4, 5), 0.4302445, 5e-8, 17.65183, 5e-6},
		// R irr kappam.fleiss(diagnoses[, 1:3]) printed "Kappa = 0.534",
		// "z = 9.89" in a tutorial run.
		{"irr/diagnoses-3-raters", "irr kappam.fleiss", diagnosesCounts(30, 0, 1, 2), 0.534, 5e-4, 9.89, 5e-3},
		// irrCAC README, fleiss.kappa.dist(distrib.6raters) = 0.4139265.
		{"irrCAC/distrib6raters", "irrCAC", diagnosesCounts(15, 0, 1, 2, 3, 4, 5), 0.4139265, 5e-8, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := iaa.FleissKappa(tt.counts)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got.Kappa, tt.want, tt.tol) {
				t.Errorf("κ = %.8f, want %v ± %g (%s)", got.Kappa, tt.want, tt.tol, tt.source)
			}
			if tt.z != 0 && !near(got.Z, tt.z, tt.ztol) {
				t.Errorf("z = %.6f, want %v ± %g (%s)", got.Z, tt.z, tt.ztol, tt.source)
			}
			if got.Units != tt.counts.Units {
				t.Errorf("used %d units, want all %d", got.Units, tt.counts.Units)
			}
		})
	}
}

func TestFleissKappaPerCategory(t *testing.T) {
	// R irr kappam.fleiss(diagnoses, detail = TRUE), as printed in pyirr's
	// README (a port of irr): per-category κ and z to 3 decimals.
	want := []struct{ kappa, z float64 }{
		{0.245, 5.192}, {0.245, 5.192}, {0.520, 11.031}, {0.471, 9.994}, {0.566, 12.009},
	}
	names := []string{"Depression", "Personality Disorder", "Schizophrenia", "Neurosis", "Other"}
	got, err := iaa.FleissKappa(diagnosesCounts(30, 0, 1, 2, 3, 4, 5))
	if err != nil {
		t.Fatal(err)
	}
	for j, w := range want {
		t.Run(names[j], func(t *testing.T) {
			c := got.PerCategory[j]
			if c.Err != nil || !near(c.Kappa, w.kappa, 5e-4) || !near(c.Z, w.z, 5e-4) {
				t.Errorf("κ_j = %.4f z = %.4f (%v), want %v z = %v", c.Kappa, c.Z, c.Err, w.kappa, w.z)
			}
		})
	}
}

func TestFleissStandardErrors(t *testing.T) {
	// irrCAC README (Gwet's variance): fleiss.kappa.dist(distrib.6raters)
	// se 0.08119291; fleiss.kappa.raw(cac.raw4raters) 0.76117 se 0.15302.
	t.Run("irrCAC/distrib6raters", func(t *testing.T) {
		got, err := iaa.FleissKappa(diagnosesCounts(15, 0, 1, 2, 3, 4, 5))
		if err != nil || !near(got.SE, 0.08119291, 5e-9) {
			t.Errorf("SE = %.8f (%v), want 0.08119291", got.SE, err)
		}
	})
	t.Run("irrCAC/raw4raters", func(t *testing.T) {
		c, _ := iaa.CountsOf(krippendorff2011())
		got, err := iaa.FleissKappaVarying(c)
		if err != nil || !near(got.Value, 0.76117, 5e-6) || !near(got.SE, 0.15302, 5e-6) {
			t.Errorf("κ = %.6f ± %.6f (%v), want 0.76117 ± 0.15302", got.Value, got.SE, err)
		}
		// 11 of the 12 units have two or more ratings.
		if got.Units != 11 {
			t.Errorf("Units = %d, want 11", got.Units)
		}
	})
	t.Run("varying-equals-fixed", func(t *testing.T) {
		// Self-check: with the same number of ratings everywhere the two
		// forms agree.
		c := diagnosesCounts(30, 0, 1, 2, 3, 4, 5)
		f, _ := iaa.FleissKappa(c)
		v, _ := iaa.FleissKappaVarying(c)
		if !near(f.Kappa, v.Value, 1e-12) || !near(f.SE, v.SE, 1e-12) {
			t.Errorf("fixed %v ± %v, varying %v ± %v", f.Kappa, f.SE, v.Value, v.SE)
		}
	})
}

func TestFleissKappaModalUnits(t *testing.T) {
	// Self-check of the unit selection: three units with 3 ratings, one with
	// 2 and one with 1; only the three enter.
	c := iaa.NewCounts([][]int{{3, 0}, {2, 1}, {0, 3}, {1, 1}, {1, 0}})
	got, err := iaa.FleissKappa(c)
	if err != nil {
		t.Fatal(err)
	}
	if got.Raters != 3 || got.Units != 3 {
		t.Errorf("m = %d, units = %d; want 3 and 3", got.Raters, got.Units)
	}
	want, _ := iaa.FleissKappa(iaa.NewCounts([][]int{{3, 0}, {2, 1}, {0, 3}}))
	if got.Kappa != want.Kappa {
		t.Errorf("κ = %v, want %v (the three units alone)", got.Kappa, want.Kappa)
	}
}
