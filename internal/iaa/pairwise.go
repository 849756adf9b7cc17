package iaa

import "errors"

// Pair is Cohen's κ between two coders of a ratings matrix.
type Pair struct {
	A, B  int   // coder indexes, A < B
	N     int   // units both coders rated
	Kappa Kappa // valid when Err is nil
	Err   error // an [*UndefinedError] when κ is undefined for this pair
}

// PairwiseCohen computes Cohen's κ with weighting w for every pair of coders
// of r (A < B, in index order), over the units each pair rated in common and
// with the categories of the whole matrix. Pairs with no unit in common or a
// single category come back with Err set, not dropped.
func PairwiseCohen(r *Ratings, w Weighting) []Pair {
	codes, cats := r.codes()
	weights := w.Matrix(len(cats))
	var pairs []Pair
	for a := 0; a < r.Coders; a++ {
		for b := a + 1; b < r.Coders; b++ {
			table := contingency(codes, r.Coders, a, b, len(cats))
			k, err := CohenKappaTable(table, weights)
			n := 0.0
			for _, row := range table {
				for _, x := range row {
					n += x
				}
			}
			pairs = append(pairs, Pair{A: a, B: b, N: int(n), Kappa: k, Err: err})
		}
	}
	return pairs
}

// LightKappa is Light's κ: the mean of the pairwise Cohen's κ,
//
//	κ_L = (1/P) Σ_{pairs} κ_ab
//
// over the P pairs whose κ is defined (Light 1971; as irr's kappam.light).
// It returns the mean and P, or an [*UndefinedError] when no pair has a
// defined κ (fewer than two coders, or no pair with a unit in common).
func LightKappa(pairs []Pair) (mean float64, used int, err error) {
	for _, p := range pairs {
		if p.Err == nil {
			mean += p.Kappa.Value
			used++
		}
	}
	if used == 0 {
		reason := "fewer than two coders"
		if len(pairs) > 0 {
			reason = "no pair of coders has a defined kappa"
			var u *UndefinedError
			if len(pairs) == 1 && errors.As(pairs[0].Err, &u) {
				reason = u.Reason
			}
		}
		return 0, 0, undefined("Light's kappa", reason)
	}
	return mean / float64(used), used, nil
}

// PairwiseCohenCoded is [PairwiseCohen] on a [Coded]: the contingency
// table of every pair of coders is filled in one pass over the units, each
// unit adding one count per pair of its ratings, so the cost is
// O(Σ_u m_u² + pairs × categories²) rather than a pass over all units per
// pair. Tables are allocated only for pairs that share a unit. With
// skipDisjoint, pairs that never rated a unit in common are left out
// instead of being returned with Err set.
//
// The weights are those of a scale whose values span span (its maximum
// less its minimum; see [Weighting.ValueMatrix]), so that a value of the
// scale nobody used still counts as a step; with span 0 they come from the
// positions of the values observed.
func PairwiseCohenCoded(c *Coded, w Weighting, span float64, skipDisjoint bool) []Pair {
	return pairwiseCohen(c, nil, w, span, skipDisjoint)
}

// pairwiseCohen is PairwiseCohenCoded where unit u of c stands for
// times[u] units (nil: one each). The tables hold whole counts, which
// float64 adds exactly in any order.
func pairwiseCohen(c *Coded, times []int, w Weighting, span float64, skipDisjoint bool) []Pair {
	k := len(c.Values)
	weights := w.ValueMatrix(c.Values, span)
	nc := c.Coders
	tables := make([][]float64, nc*nc)
	for u := range c.Units() {
		add := 1.0
		if times != nil {
			if times[u] == 0 {
				continue
			}
			add = float64(times[u])
		}
		coders, codes := c.Unit(u)
		for i, a := range coders {
			for j := i + 1; j < len(coders); j++ {
				b := coders[j]
				x, y := codes[i], codes[j]
				if a > b {
					a, b, x, y = b, a, y, x
				}
				t := tables[int(a)*nc+int(b)]
				if t == nil {
					t = make([]float64, k*k)
					tables[int(a)*nc+int(b)] = t
				}
				t[int(x)*k+int(y)] += add
				a = coders[i]
			}
		}
	}
	empty := make([]float64, k*k)
	rows := make([][]float64, k)
	var pairs []Pair
	for a := range nc {
		for b := a + 1; b < nc; b++ {
			flat := tables[a*nc+b]
			if flat == nil {
				if skipDisjoint {
					continue
				}
				flat = empty
			}
			n := 0.0
			for i := range rows {
				rows[i] = flat[i*k : (i+1)*k]
			}
			for _, x := range flat {
				n += x
			}
			kp, err := CohenKappaTable(rows, weights)
			pairs = append(pairs, Pair{A: a, B: b, N: int(n), Kappa: kp, Err: err})
		}
	}
	return pairs
}
