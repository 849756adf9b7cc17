package iaa

import "fmt"

// Weighting names a scheme of agreement weights for Cohen's κ on ordered
// categories. Weights are agreement weights: 1 on the diagonal, less than 1
// for a disagreement, computed from category positions 0..k-1 (Cicchetti &
// Allison 1971 for linear, Fleiss & Cohen 1973 for quadratic).
type Weighting int

const (
	// Unweighted gives weight 1 to agreement and 0 to any disagreement.
	Unweighted Weighting = iota
	// Linear gives weight 1 − |i−j|/(k−1).
	Linear
	// Quadratic gives weight 1 − (i−j)²/(k−1)².
	Quadratic
)

// String returns "none", "linear" or "quadratic".
func (w Weighting) String() string {
	switch w {
	case Unweighted:
		return "none"
	case Linear:
		return "linear"
	case Quadratic:
		return "quadratic"
	}
	return fmt.Sprintf("Weighting(%d)", int(w))
}

// ParseWeighting accepts "none" (or "unweighted" or ""), "linear" and
// "quadratic".
func ParseWeighting(s string) (Weighting, error) {
	switch s {
	case "", "none", "unweighted":
		return Unweighted, nil
	case "linear":
		return Linear, nil
	case "quadratic":
		return Quadratic, nil
	}
	return 0, fmt.Errorf("iaa: unknown weights %q (want none, linear or quadratic)", s)
}

// ValueMatrix returns the agreement weights of the scheme for categories
// with the given numeric values (ascending) on a scale whose values span
// span (its maximum less its minimum): linear 1 − |vᵢ−vⱼ|/span, quadratic
// 1 − (vᵢ−vⱼ)²/span². A scale's unused values thus still count: on a 1–5
// scale, 2 against 4 weighs the same whether or not anybody chose 3, as
// it would in the k × k table of the whole scale. For the consecutive
// values of a whole scale it equals Matrix(k). Without a scale (span 0 or
// less) the weights are Matrix(k), by the values' positions, as R's irr
// and most tools weigh the levels observed.
func (w Weighting) ValueMatrix(values []float64, span float64) [][]float64 {
	if !(span > 0) {
		return w.Matrix(len(values))
	}
	return w.over(values, span)
}

// Matrix returns the k × k agreement weights of the scheme, by category
// positions 0..k−1.
func (w Weighting) Matrix(k int) [][]float64 {
	positions := make([]float64, k)
	for i := range positions {
		positions[i] = float64(i)
	}
	return w.over(positions, float64(k-1))
}

// over returns the weights of categories at values on a span.
func (w Weighting) over(values []float64, span float64) [][]float64 {
	m := make([][]float64, len(values))
	for i := range m {
		m[i] = make([]float64, len(values))
		for j := range m[i] {
			d := values[i] - values[j]
			if d < 0 {
				d = -d
			}
			switch {
			case i == j:
				m[i][j] = 1
			case w == Linear:
				m[i][j] = 1 - d/span
			case w == Quadratic:
				m[i][j] = 1 - d*d/(span*span)
			case w == Unweighted:
				m[i][j] = 0
			default:
				panic(fmt.Sprintf("iaa: unknown Weighting %d", int(w)))
			}
		}
	}
	return m
}
