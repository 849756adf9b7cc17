package iaa

import (
	"fmt"
	"math"
)

// Kappa is Cohen's κ for two coders with its large-sample inference.
type Kappa struct {
	Value float64 // κ
	// SE is the asymptotic standard error without assuming κ = 0, for
	// confidence intervals (Fleiss, Cohen & Everitt 1969).
	SE float64
	// SE0 is the standard error under the null hypothesis κ = 0, for tests.
	SE0 float64
	// Z is Value/SE0, the test statistic of κ = 0; zero when SE0 is zero.
	Z float64
	// Low and High bound the 95% interval Value ± 1.96·SE, clipped to [−1, 1].
	Low, High float64
	// N is the number of units both coders rated (the table total).
	N float64
	// Other is the number of the two coders' 2N ratings that are not the
	// category both gave most; below about 10 the interval is too narrow
	// (TestRareValueIntervalCoverage).
	Other float64
}

// CohenKappaTable computes Cohen's κ from a k × k contingency table, where
// table[i][j] counts the units coder A put in category i and coder B in
// category j, with agreement weights w (nil for unweighted; see
// [Weighting.Matrix]).
//
// With p_ij = table[i][j]/n, row and column margins p_i. and p_.j:
//
//	p_o = Σ w_ij p_ij,  p_e = Σ w_ij p_i. p_.j,  κ = (p_o − p_e)/(1 − p_e)
//
// (Cohen 1960; weighted form Cohen 1968). The standard errors are those of
// Fleiss, Cohen & Everitt (1969), with w̄_i. = Σ_j p_.j w_ij and
// w̄_.j = Σ_i p_i. w_ij:
//
//	Var(κ)  = [Σ p_ij (w_ij − (w̄_i. + w̄_.j)(1−κ))² − (κ − p_e(1−κ))²] / (n(1−p_e)²)
//	Var0(κ) = [Σ p_i. p_.j (w_ij − (w̄_i. + w̄_.j))² − p_e²] / (n(1−p_e)²)
//
// Preconditions: table is square with non-negative entries and w, if not
// nil, has its shape; otherwise CohenKappaTable panics. κ is undefined (an
// [*UndefinedError]) when the table holds fewer than two units or p_e = 1, that is when both
// coders used one and the same category throughout.
func CohenKappaTable(table [][]float64, w [][]float64) (Kappa, error) {
	const stat = "Cohen's kappa"
	k := len(table)
	checkSquare("table", table, k)
	if w == nil {
		w = Unweighted.Matrix(k)
	}
	checkSquare("weights", w, k)
	n := 0.0
	for _, row := range table {
		for _, x := range row {
			if x < 0 || x != x {
				panic("iaa: CohenKappaTable: negative or NaN count")
			}
			n += x
		}
	}
	if n == 0 {
		return Kappa{}, undefined(stat, reasonNoOverlap)
	}
	if n < 2 {
		return Kappa{N: n}, undefined(stat, reasonOneOverlap)
	}
	pr := make([]float64, k) // row margins p_i.
	pc := make([]float64, k) // column margins p_.j
	po := 0.0
	for i, row := range table {
		for j, x := range row {
			p := x / n
			pr[i] += p
			pc[j] += p
			po += w[i][j] * p
		}
	}
	pe := 0.0
	wr := make([]float64, k) // w̄_i.
	wc := make([]float64, k) // w̄_.j
	for i := range k {
		for j := range k {
			pe += w[i][j] * pr[i] * pc[j]
			wr[i] += pc[j] * w[i][j]
			wc[j] += pr[i] * w[i][j]
		}
	}
	if 1-pe < 1e-12 {
		return Kappa{N: n}, undefined(stat, "chance agreement is 1: both coders used a single category")
	}
	kappa := (po - pe) / (1 - pe)
	var s, s0 float64
	for i := range k {
		for j := range k {
			d := w[i][j] - (wr[i]+wc[j])*(1-kappa)
			s += table[i][j] / n * d * d
			d0 := w[i][j] - (wr[i] + wc[j])
			s0 += pr[i] * pc[j] * d0 * d0
		}
	}
	den := n * (1 - pe) * (1 - pe)
	c := kappa - pe*(1-kappa)
	se := sqrtPos((s - c*c) / den)
	se0 := sqrtPos((s0 - pe*pe) / den)
	z := 0.0
	if se0 > 0 {
		z = kappa / se0
	}
	most := 0.0
	for i := range k {
		most = max(most, pr[i]+pc[i])
	}
	return Kappa{
		Value: kappa, SE: se, SE0: se0, Z: z,
		Low: clip1(kappa - z975*se), High: clip1(kappa + z975*se),
		N: n, Other: math.Round(n * (2 - most)),
	}, nil
}

// CohenKappa computes Cohen's κ between coders a and b of r over the units
// both rated, with the categories of the whole matrix (its distinct values,
// ascending) so that weights mean the same for every pair of coders. See
// [CohenKappaTable] for the formula and when it is undefined.
func CohenKappa(r *Ratings, a, b int, w Weighting) (Kappa, error) {
	table, _ := Contingency(r, a, b)
	return CohenKappaTable(table, w.Matrix(len(table)))
}

// Contingency cross-tabulates coders a and b of r over the units both rated.
// Rows are coder a's categories, columns coder b's; cats lists the category
// values (the distinct values of all of r, ascending).
func Contingency(r *Ratings, a, b int) (table [][]float64, cats []float64) {
	codes, cats := r.codes()
	return contingency(codes, r.Coders, a, b, len(cats)), cats
}

func contingency(codes []int32, coders, a, b, k int) [][]float64 {
	if a < 0 || a >= coders || b < 0 || b >= coders {
		panic(fmt.Sprintf("iaa: coder index out of range (%d, %d of %d)", a, b, coders))
	}
	flat := make([]float64, k*k)
	for u := 0; u+coders <= len(codes); u += coders {
		x, y := codes[u+a], codes[u+b]
		if x >= 0 && y >= 0 {
			flat[int(x)*k+int(y)]++
		}
	}
	table := make([][]float64, k)
	for i := range table {
		table[i] = flat[i*k : (i+1)*k]
	}
	return table
}

func checkSquare(what string, m [][]float64, k int) {
	if len(m) != k {
		panic(fmt.Sprintf("iaa: %s has %d rows, want %d", what, len(m), k))
	}
	for i, row := range m {
		if len(row) != k {
			panic(fmt.Sprintf("iaa: %s row %d has %d columns, want %d", what, i, len(row), k))
		}
	}
}
