package iaa_test

import (
	"testing"

	"annotate/internal/iaa"
)

func TestCohenKappaPublished(t *testing.T) {
	// y1 = 40×0 + 60×1, y2 = 20×0 + 20×1 + 10×0 + 50×1, paired element-wise.
	y1a := append(repeat(0, 40), repeat(1, 60)...)
	y2a := append(append(append(repeat(0, 20), repeat(1, 20)...), repeat(0, 10)...), repeat(1, 50)...)
	// y1 = 46×0 + 44×1 + 10×2, y2 = 50×0 + 40×1 + 10×2.
	y1b := append(append(repeat(0, 46), repeat(1, 44)...), repeat(2, 10)...)
	y2b := append(append(repeat(0, 50), repeat(1, 40)...), repeat(2, 10)...)

	tests := []struct {
		name   string
		source string
		data   *iaa.Ratings
		w      iaa.Weighting
		want   float64
		tol    float64
	}{
		// Values quoted in PROTOCOL.md (a common textbook pair of vectors).
		{"binary", "PROTOCOL.md", iaa.FromColumns(y1a, y2a), iaa.Unweighted, 0.348, 5e-4},
		{"three/unweighted", "PROTOCOL.md", iaa.FromColumns(y1b, y2b), iaa.Unweighted, 0.9315, 5e-5},
		{"three/linear", "PROTOCOL.md", iaa.FromColumns(y1b, y2b), iaa.Linear, 0.9412, 5e-5},
		{"three/quadratic", "PROTOCOL.md", iaa.FromColumns(y1b, y2b), iaa.Quadratic, 0.9541, 5e-5},
		// R irr kappa2(diagnoses[, 1:2]) as printed in a tutorial run
		// ("Kappa = 0.651", "0.633" with weight "equal", "0.655" "squared").
		{"irr/diagnoses/unweighted", "irr kappa2", diagnosesRatings(30, 0, 1), iaa.Unweighted, 0.651, 5e-4},
		{"irr/diagnoses/linear", "irr kappa2", diagnosesRatings(30, 0, 1), iaa.Linear, 0.633, 5e-4},
		{"irr/diagnoses/quadratic", "irr kappa2", diagnosesRatings(30, 0, 1), iaa.Quadratic, 0.655, 5e-4},
		// R irr kappa2(anxiety[, 2:3], ...) as pinned in statsmodels'
		// test_inter_rater.py; level 5 is unused so weights run over 1,2,3,4,6.
		{"irr/anxiety/unweighted", "irr kappa2", iaa.FromColumns(anxiety[1], anxiety[2]), iaa.Unweighted, -0.006289308, 5e-10},
		{"irr/anxiety/linear", "irr kappa2", iaa.FromColumns(anxiety[1], anxiety[2]), iaa.Linear, 0.1459075, 5e-8},
		{"irr/anxiety/quadratic", "irr kappa2", iaa.FromColumns(anxiety[1], anxiety[2]), iaa.Quadratic, 0.2520325, 5e-8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := iaa.CohenKappa(tt.data, 0, 1, tt.w)
			if err != nil {
				t.Fatalf("CohenKappa: %v", err)
			}
			if !near(got.Value, tt.want, tt.tol) {
				t.Errorf("κ = %.7f, want %v ± %g (%s)", got.Value, tt.want, tt.tol, tt.source)
			}
		})
	}
}

func TestCohenKappaZ(t *testing.T) {
	// z = κ/SE0 as reported by R irr's kappa2.
	tests := []struct {
		name string
		data *iaa.Ratings
		w    iaa.Weighting
		want float64
		tol  float64
	}{
		// statsmodels' test_inter_rater.py, from irr on anxiety[, 2:3].
		{"anxiety/unweighted", iaa.FromColumns(anxiety[1], anxiety[2]), iaa.Unweighted, -0.0604067, 5e-8},
		{"anxiety/linear", iaa.FromColumns(anxiety[1], anxiety[2]), iaa.Linear, 1.282472, 5e-7},
		{"anxiety/quadratic", iaa.FromColumns(anxiety[1], anxiety[2]), iaa.Quadratic, 1.437451, 5e-7},
		// Tutorial printout of irr on diagnoses[, 1:2]: z = 7, 5.43, 3.91.
		{"diagnoses/unweighted", diagnosesRatings(30, 0, 1), iaa.Unweighted, 7, 5e-3},
		{"diagnoses/linear", diagnosesRatings(30, 0, 1), iaa.Linear, 5.43, 5e-3},
		{"diagnoses/quadratic", diagnosesRatings(30, 0, 1), iaa.Quadratic, 3.91, 5e-3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := iaa.CohenKappa(tt.data, 0, 1, tt.w)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got.Z, tt.want, tt.tol) {
				t.Errorf("z = %.7f, want %v ± %g", got.Z, tt.want, tt.tol)
			}
		})
	}
}

func TestCohenKappaTableInference(t *testing.T) {
	sas := [][]float64{{0, 4, 1}, {0, 8, 0}, {0, 1, 5}}
	tests := []struct {
		name                      string
		table                     [][]float64
		w                         [][]float64
		kappa, se, lo, hi, se0, z float64
		tol                       float64
	}{
		// SAS PROC FREQ output pinned in statsmodels' test_inter_rater.py
		// (4 decimals): simple kappa.
		{"sas/simple", sas, nil, 0.4842, 0.1380, 0.2137, 0.7547, 0.1484, 3.2626, 5e-5},
		// Same table, weighted kappa with Cicchetti–Allison (linear) weights.
		{"sas/linear", sas, iaa.Linear.Matrix(3), 0.4701, 0.1457, 0.1845, 0.7558, 0.1426, 3.2971, 5e-5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := iaa.CohenKappaTable(tt.table, tt.w)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{
				{"kappa", got.Value, tt.kappa}, {"ASE", got.SE, tt.se}, {"low", got.Low, tt.lo},
				{"high", got.High, tt.hi}, {"ASE0", got.SE0, tt.se0}, {"Z", got.Z, tt.z},
			} {
				if !near(c.got, c.want, tt.tol) {
					t.Errorf("%s = %.6f, want %v ± %g", c.what, c.got, c.want, tt.tol)
				}
			}
		})
	}
	t.Run("irrCAC/cont3x3abstractors", func(t *testing.T) {
		// irrCAC README, kappa2.table: 0.7964094, se 0.05891072 (Gwet's
		// variance, which for κ is the Fleiss–Cohen–Everitt one).
		got, err := iaa.CohenKappaTable(cont3x3abstractors, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !near(got.Value, 0.7964094, 5e-8) || !near(got.SE, 0.05891072, 5e-9) {
			t.Errorf("κ = %.8f ± %.8f, want 0.7964094 ± 0.05891072", got.Value, got.SE)
		}
	})
}

func TestLightKappa(t *testing.T) {
	// R irr kappam.light(diagnoses[, 1:3]) printed "Kappa = 0.555" in a
	// tutorial run.
	pairs := iaa.PairwiseCohen(diagnosesRatings(30, 0, 1, 2), iaa.Unweighted)
	if len(pairs) != 3 {
		t.Fatalf("got %d pairs, want 3", len(pairs))
	}
	got, used, err := iaa.LightKappa(pairs)
	if err != nil || used != 3 {
		t.Fatalf("LightKappa: %v (used %d)", err, used)
	}
	if !near(got, 0.555, 5e-4) {
		t.Errorf("Light's κ = %.5f, want 0.555", got)
	}
	// The (0, 1) pair is irr's kappa2(diagnoses[, 1:2]) = 0.651.
	if p := pairs[0]; p.A != 0 || p.B != 1 || p.N != 30 || !near(p.Kappa.Value, 0.651, 5e-4) {
		t.Errorf("pair 0 = %+v", p)
	}
}
