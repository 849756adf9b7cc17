package agreement_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"annotate/internal/agreement"
)

// krippendorff2011CSV is the reliability data of Krippendorff (2011),
// "Computing Krippendorff's Alpha-Reliability" (4 coders × 12 units), as a
// ratings file: some missing ratings are empty values, others absent rows.
func krippendorff2011CSV() string {
	cols := map[string]string{
		"A": "1,2,3,3,2,1,4,1,2,.,.,.",
		"B": "1,2,3,3,2,2,4,1,2,5,.,3",
		"C": ".,3,3,3,2,3,4,2,2,5,1,.",
		"D": "1,2,3,3,2,4,4,1,2,5,1,.",
	}
	var b strings.Builder
	b.WriteString("coder,unit,value\n")
	for _, c := range []string{"A", "B", "C", "D"} {
		for u, v := range strings.Split(cols[c], ",") {
			switch {
			case v != ".":
				fmt.Fprintf(&b, "%s,unit%02d,%s\n", c, u+1, v)
			case c == "A":
				fmt.Fprintf(&b, "%s,unit%02d,\n", c, u+1) // an empty value
			}
		}
	}
	return b.String()
}

func compute(t *testing.T, in string, opts agreement.Options) *agreement.Report {
	t.Helper()
	tab, err := agreement.ReadRatings(strings.NewReader(in), "ratings.csv")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := agreement.Compute(tab, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestComputeKrippendorff2011(t *testing.T) {
	// Krippendorff (2011) publishes α to three decimals.
	tests := []struct {
		level string
		want  float64
	}{
		{"nominal", 0.743}, {"ordinal", 0.815}, {"interval", 0.849}, {"ratio", 0.797},
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			rep := compute(t, krippendorff2011CSV(), agreement.Options{Level: tt.level})
			a := rep.Statistics.KrippendorffAlpha
			if a.Value == nil || math.Abs(*a.Value-tt.want) > 5e-4 {
				t.Errorf("alpha = %v (%s), want %v ± 5e-4", a.Value, a.Undefined, tt.want)
			}
			if rep.Units != 12 || rep.Coders != 4 || rep.Ratings != 41 {
				t.Errorf("units %d coders %d ratings %d, want 12, 4, 41", rep.Units, rep.Coders, rep.Ratings)
			}
		})
	}
	t.Run("other-statistics", func(t *testing.T) {
		rep := compute(t, krippendorff2011CSV(), agreement.Options{})
		s := rep.Statistics
		// irrCAC README on the same data (cac.raw4raters): pa 0.8181818,
		// AC1 0.77544, Fleiss' generalised κ 0.76117.
		for _, c := range []struct {
			name string
			got  *float64
			want float64
		}{
			{"percent_agreement", s.PercentAgreement.Value, 0.8181818},
			{"gwet_ac1", s.GwetAC1.Value, 0.77544},
			{"scott_pi", s.ScottPi.Value, 0.76117},
		} {
			if c.got == nil || math.Abs(*c.got-c.want) > 5e-6 {
				t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
			}
		}
		// Units 2–9 carry all four ratings.
		if f := s.FleissKappa; f.NUnits == nil || *f.NUnits != 8 || *f.PerUnit != 4 {
			t.Errorf("fleiss_kappa = %+v, want 8 units with 4 ratings", f)
		}
		if len(rep.Pairwise) != 6 || s.CohenKappaMean.NPairs == nil || *s.CohenKappaMean.NPairs != 6 {
			t.Errorf("pairwise %d, cohen_kappa_mean %+v", len(rep.Pairwise), s.CohenKappaMean)
		}
		if p := rep.Pairwise[0]; p.Coders != [2]string{"A", "B"} || p.N != 9 {
			t.Errorf("first pair = %+v, want A–B over 9 units (units 1–9)", p)
		}
	})
}

func TestComputeValueErrors(t *testing.T) {
	in := "unit,coder,value\nu1,a,1\nu1,b,2\nu2,a,abc\nu2,b,-1\nu3,a,abc\n"
	tests := []struct {
		name string
		opts agreement.Options
		want string
	}{
		{"interval", agreement.Options{Level: "interval"}, `ratings.csv:4: value: "abc" is not a number (level interval)`},
		{"ordinal", agreement.Options{Level: "ordinal"}, `ratings.csv:4: value: "abc" is not a number (level ordinal)`},
		{"level", agreement.Options{Level: "jaccard"}, `unknown level "jaccard"`},
		{"masi-weights", agreement.Options{Level: "masi", Weights: "quadratic"}, "weights quadratic need an ordered level"},
		{"weights", agreement.Options{Level: "nominal", Weights: "linear"}, "weights linear need an ordered level"},
		{"weights-name", agreement.Options{Level: "ordinal", Weights: "cubic"}, `unknown weights "cubic"`},
		{"bootstrap", agreement.Options{Bootstrap: -1}, "bootstrap replicates must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := agreement.ReadRatings(strings.NewReader(in), "ratings.csv")
			if err != nil {
				t.Fatal(err)
			}
			_, err = agreement.Compute(tab, tt.opts)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("ratio-negative", func(t *testing.T) {
		tab, _ := agreement.ReadRatings(strings.NewReader("unit,coder,value\nu1,a,1\nu1,b,-2.5\n"), "ratings.csv")
		_, err := agreement.Compute(tab, agreement.Options{Level: "ratio"})
		want := `ratings.csv:3: value: "-2.5" is negative; the ratio level needs values ≥ 0`
		if err == nil || err.Error() != want {
			t.Errorf("error = %v, want %q", err, want)
		}
	})
	t.Run("nominal-accepts-text", func(t *testing.T) {
		rep := compute(t, in, agreement.Options{})
		if rep.Ratings != 5 {
			t.Errorf("ratings = %d", rep.Ratings)
		}
	})
}

func TestComputeUndefined(t *testing.T) {
	// Everybody says "faithful": chance-corrected coefficients are undefined,
	// raw agreement is 1.
	in := "unit,coder,value\ns1,a,faithful\ns1,b,faithful\ns2,a,faithful\ns2,b,faithful\n"
	rep := compute(t, in, agreement.Options{Bootstrap: 100})
	s := rep.Statistics
	for name, st := range map[string]agreement.Statistic{
		"krippendorff_alpha": s.KrippendorffAlpha, "fleiss_kappa": s.FleissKappa,
		"cohen_kappa_mean": s.CohenKappaMean, "scott_pi": s.ScottPi,
	} {
		if st.Value != nil || st.Undefined == "" {
			t.Errorf("%s = %+v, want undefined with a reason", name, st)
		}
	}
	if v := s.PercentAgreement.Value; v == nil || *v != 1 {
		t.Errorf("percent_agreement = %v, want 1", v)
	}
	// One category observed: AC1 has q = 1 and is undefined as well.
	if s.GwetAC1.Undefined == "" {
		t.Errorf("gwet_ac1 = %+v, want undefined", s.GwetAC1)
	}
	if p := rep.Pairwise[0]; p.CohenKappa != nil || p.Undefined == "" || p.N != 2 {
		t.Errorf("pair = %+v, want undefined over 2 units", p)
	}
}

func TestComputeEmptyTable(t *testing.T) {
	rep := compute(t, "unit,coder,value\n", agreement.Options{Level: "interval", Bootstrap: 10})
	if rep.Units != 0 || rep.Pairwise == nil || rep.Statistics.KrippendorffAlpha.Undefined == "" {
		t.Errorf("report = %+v", rep)
	}
}

func TestComputeBootstrapReproducible(t *testing.T) {
	opts := agreement.Options{Level: "interval", Bootstrap: 500, Seed: 9, MinAlpha: 0.8}
	a := compute(t, krippendorff2011CSV(), opts).Statistics.KrippendorffAlpha
	b := compute(t, krippendorff2011CSV(), opts).Statistics.KrippendorffAlpha
	if a.CI95 == nil || *a.CI95 != *b.CI95 || *a.PBelowMin != *b.PBelowMin {
		t.Errorf("two runs differ: %+v vs %+v", a, b)
	}
	if *a.MinAlpha != 0.8 || *a.Bootstrap != 500 || !(a.CI95[0] < *a.Value && *a.Value < a.CI95[1]) {
		t.Errorf("alpha = %+v", a)
	}
}

func TestComputeWeights(t *testing.T) {
	// Relevance scores 1–5: quadratic weights credit near misses, so the
	// weighted mean κ is higher than the unweighted one (a self-check).
	in := "unit,coder,value\n" +
		"a,x,1\na,y,2\nb,x,2\nb,y,2\nc,x,3\nc,y,4\nd,x,4\nd,y,4\ne,x,5\ne,y,5\nf,x,1\nf,y,1\n"
	none := compute(t, in, agreement.Options{Level: "ordinal"}).Statistics.CohenKappaMean
	quad := compute(t, in, agreement.Options{Level: "ordinal", Weights: "quadratic"})
	if quad.Weights != "quadratic" || !(*quad.Statistics.CohenKappaMean.Value > *none.Value) {
		t.Errorf("quadratic %v, unweighted %v", *quad.Statistics.CohenKappaMean.Value, *none.Value)
	}
}

func TestComputeTooSparse(t *testing.T) {
	// 9,000 units each rated by its own coder would make 81M cells.
	var b strings.Builder
	b.WriteString("unit,coder,value\n")
	for i := range 9000 {
		fmt.Fprintf(&b, "u%d,c%d,1\n", i, i)
	}
	tab, err := agreement.ReadRatings(strings.NewReader(b.String()), "sparse.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = agreement.Compute(tab, agreement.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "sparse.csv: 9000 units × 9000 coders make more than") {
		t.Errorf("error = %v", err)
	}
}

// TestBootstrapIntervalOrderFree reads one ratings file in unit-major
// order and shuffled, at each level, and expects the same α interval from
// the same seed: units are resampled in a canonical order, never in the
// order rows arrive (values, too, are numbered as they come).
func TestBootstrapIntervalOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	var rows []string
	for u := range 800 {
		truth := rng.IntN(5)
		for c := range 3 {
			v := truth
			if rng.IntN(3) == 0 {
				v = rng.IntN(5)
			}
			rows = append(rows, fmt.Sprintf("u%d,c%d,%d", u, c, v+1))
		}
	}
	shuffled := slices.Clone(rows)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, level := range []string{"nominal", "ordinal", "interval", "ratio"} {
		for _, method := range []string{"units", "pairs"} {
			opts := agreement.Options{Level: level, Bootstrap: 300, BootstrapMethod: method, Seed: 4}
			a := compute(t, "unit,coder,value\n"+strings.Join(rows, "\n")+"\n", opts).Statistics.KrippendorffAlpha
			b := compute(t, "unit,coder,value\n"+strings.Join(shuffled, "\n")+"\n", opts).Statistics.KrippendorffAlpha
			if a.CI95 == nil || b.CI95 == nil || math.Abs(a.CI95[0]-b.CI95[0]) > 1e-12 || math.Abs(a.CI95[1]-b.CI95[1]) > 1e-12 {
				t.Errorf("%s, %s: %v in unit order, %v shuffled", level, method, a.CI95, b.CI95)
			}
		}
	}
}
