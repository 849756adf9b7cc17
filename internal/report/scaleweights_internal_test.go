package report

import (
	"math"
	"testing"

	"annotate/internal/iaa"
)

// quadraticKappaRef is weighted κ from its definition (Cohen 1968):
// 1 − Σ vᵢⱼ oᵢⱼ / Σ vᵢⱼ eᵢⱼ with disagreement weights vᵢⱼ = (xᵢ − xⱼ)²
// on the values themselves, o the observed and e the expected (product
// of the margins) proportions of the pairs.
func quadraticKappaRef(a, b []float64) float64 {
	n := float64(len(a))
	var obs, exp float64
	for i := range a {
		obs += (a[i] - b[i]) * (a[i] - b[i]) / n
	}
	for i := range a {
		for j := range b {
			exp += (a[i] - b[j]) * (a[i] - b[j]) / (n * n)
		}
	}
	return 1 - obs/exp
}

// Weighted κ on a rating scale weighed the values observed by their
// positions: on relevance 1–5 with nobody choosing 3, 2 against 4 counted
// as one step apart, not two, and a third annotator's lone 3 elsewhere
// moved the pair's κ. The weights now come from the scale.
func TestWeightedKappaUsesTheScale(t *testing.T) {
	a := []float64{1, 2, 4, 5, 5, 4, 2, 1, 4, 5, 2, 4}
	b := []float64{2, 1, 4, 4, 5, 5, 4, 1, 2, 5, 2, 5}
	want := quadraticKappaRef(a, b)
	kappaOf := func(third bool) float64 {
		t.Helper()
		bl := iaa.NewCodedBuilder(3)
		for u := range a {
			bl.Add(u, 0, a[u])
			bl.Add(u, 1, b[u])
		}
		units := len(a)
		if third {
			bl.Add(units, 2, 3) // a lone 3, with somebody else's 4
			bl.Add(units, 0, 4)
			units++
		}
		rt := ratings{spec: &spec{name: "relevance", level: LevelSummary, scale: scaleOrdinal, positive: -1, span: 4}, c: bl.Build(units)}
		_, pairs := statistics(rt, bootstrap{})
		for _, p := range pairs {
			if p.A == 0 && p.B == 1 {
				if p.Err != nil {
					t.Fatal(p.Err)
				}
				return p.Kappa.Value
			}
		}
		t.Fatal("no pair of the first two annotators")
		return 0
	}
	if got := kappaOf(false); math.Abs(got-want) > 1e-12 {
		t.Errorf("quadratic κ %.6f, want %.6f from the scale's values", got, want)
	}
	if got := kappaOf(true); math.Abs(got-want) > 1e-12 {
		t.Errorf("with a third annotator's 3 elsewhere: %.6f, want %.6f", got, want)
	}
	// The κ of each annotator against the others' plurality and against
	// gold weigh on the same scale: a plurality table over 1, 2, 4 and 5
	// matches the definition too.
	flat := make([]float64, 16)
	codes := map[float64]int{1: 0, 2: 1, 4: 2, 5: 3}
	for u := range a {
		flat[codes[a[u]]*4+codes[b[u]]]++
	}
	k, err := usedTable(flat, []float64{1, 2, 4, 5}, iaa.Quadratic, 4)
	if err != nil || math.Abs(k.Value-want) > 1e-12 {
		t.Errorf("usedTable: %v %v, want %.6f", k.Value, err, want)
	}
}

// On a whole scale's consecutive values the weights are the textbook
// k × k ones.
func TestValueMatrixOnAWholeScale(t *testing.T) {
	for _, w := range []iaa.Weighting{iaa.Linear, iaa.Quadratic} {
		got, want := w.ValueMatrix([]float64{1, 2, 3, 4, 5}, 4), w.Matrix(5)
		for i := range want {
			for j := range want[i] {
				if math.Abs(got[i][j]-want[i][j]) > 1e-15 {
					t.Fatalf("%s [%d][%d]: %v, want %v", w, i, j, got[i][j], want[i][j])
				}
			}
		}
	}
}
