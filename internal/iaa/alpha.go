package iaa

import (
	"fmt"
	"math"
	"slices"
)

const alphaStat = "Krippendorff's alpha"

// Alpha computes Krippendorff's α at the given level of measurement from a
// ratings matrix with missing values (Krippendorff 2011):
//
//	α = 1 − D_o/D_e
//	D_o = (1/n) Σ_u 1/(m_u−1) Σ_{i≠j in u} δ²(v_ui, v_uj)
//	D_e = (1/(n(n−1))) Σ_{c,k} n_c n_k δ²(c, k)
//
// where m_u is the number of ratings of unit u, only units with m_u ≥ 2 are
// pairable, n = Σ m_u over them, and n_c counts the pairable values equal to
// c. This is the coincidence-matrix form without building the matrix: the
// cost is linear in the number of ratings, plus sorting the distinct values
// for the ordinal level. Nominal, ordinal and interval use O(distinct
// values) memory beyond the input. Ratio and MASI compute D_e over pairs of
// distinct values, O(V²) time for V distinct values: fine for rating
// scales and label sets, slow for a million distinct reals.
//
// Undefined (an [*UndefinedError]) when fewer than two units have two
// ratings (a single unit says nothing about agreement) or D_e = 0
// (every pairable value is the same). Values that the level cannot take
// (±Inf at a numeric level, negatives at the ratio level, non-set values at
// the MASI level) are an error too.
func Alpha(r *Ratings, level Level) (float64, error) {
	d, err := disagreements(r, level)
	if err != nil {
		return 0, err
	}
	return 1 - d.do/d.de, nil
}

// AlphaFunc computes Krippendorff's α with a caller's difference function
// δ²(a, b), which must be symmetric, non-negative and zero when a = b.
// D_e is computed over pairs of distinct values (see [Alpha]).
func AlphaFunc(r *Ratings, delta func(a, b float64) float64) (float64, error) {
	r.check()
	d, err := genericDisagreement(r, delta)
	if err != nil {
		return 0, err
	}
	return 1 - d.do/d.de, nil
}

// disagreement holds the parts of α: observed and expected disagreement, the
// number n of pairable values and the number of within-unit pairs.
type disagreement struct {
	do, de   float64
	n, pairs int
	units    int // pairable units
}

func (d disagreement) check() (disagreement, error) {
	if d.n == 0 {
		return d, undefined(alphaStat, reasonNoPairable)
	}
	if d.units < 2 {
		return d, undefined(alphaStat, reasonOnePairable)
	}
	if !(d.de > 0) {
		return d, undefined(alphaStat, "every pairable value is the same, so expected disagreement is zero")
	}
	return d, nil
}

func disagreements(r *Ratings, level Level) (disagreement, error) {
	r.check()
	if err := validate(r, level); err != nil {
		return disagreement{}, err
	}
	switch level {
	case Nominal:
		return nominalDisagreement(r)
	case Ordinal:
		return intervalDisagreement(r, midRanks(r))
	case Interval:
		return intervalDisagreement(r, nil)
	case Ratio:
		return genericDisagreement(r, ratioDelta)
	case MASI:
		return genericDisagreement(r, MASIDistance)
	}
	panic(fmt.Sprintf("iaa: unknown Level %d", int(level)))
}

func ratioDelta(a, b float64) float64 {
	if a+b == 0 {
		return 0
	}
	d := (a - b) / (a + b)
	return d * d
}

// validate rejects values the level cannot take.
func validate(r *Ratings, level Level) error {
	if level == Nominal {
		return nil
	}
	for i, v := range r.Values {
		if v != v {
			continue
		}
		var bad string
		switch {
		case math.IsInf(v, 0):
			bad = "is not finite"
		case level == Ratio && v < 0:
			bad = "is negative; the ratio level needs values ≥ 0"
		case level == MASI && !isSetValue(v):
			bad = "is not a label set made by SetValue"
		}
		if bad != "" {
			return fmt.Errorf("iaa: %s level: unit %d, coder %d: value %v %s", level, i/r.Coders, i%r.Coders, v, bad)
		}
	}
	return nil
}

// compact appends the ratings present in row to buf[:0].
func compact(row, buf []float64) []float64 {
	buf = buf[:0]
	for _, v := range row {
		if v == v {
			buf = append(buf, v)
		}
	}
	return buf
}

func nominalDisagreement(r *Ratings) (disagreement, error) {
	t := newTally()
	buf := make([]float64, 0, r.Coders)
	var d disagreement
	for u := range r.Units {
		vals := compact(r.Unit(u), buf)
		m := len(vals)
		if m < 2 {
			continue
		}
		d.n += m
		d.units++
		d.pairs += m * (m - 1) / 2
		for _, v := range vals {
			t.add(v)
		}
		d.do += 2 * float64(m*(m-1)/2-equalPairs(vals)) / float64(m-1)
	}
	if d.n == 0 {
		return d.check()
	}
	_, counts := t.distinct()
	n := float64(d.n)
	ss := 0.0
	for _, c := range counts {
		ss += float64(c) * float64(c)
	}
	d.do /= n
	d.de = (n*n - ss) / (n * (n - 1))
	return d.check()
}

// equalPairs counts the unordered pairs of equal values; it may reorder vals.
func equalPairs(vals []float64) int {
	eq := 0
	if len(vals) <= 32 {
		for i, v := range vals {
			for _, w := range vals[i+1:] {
				if v == w {
					eq++
				}
			}
		}
		return eq
	}
	slices.Sort(vals)
	run := 1
	for i := 1; i <= len(vals); i++ {
		if i < len(vals) && vals[i] == vals[i-1] {
			run++
			continue
		}
		eq += run * (run - 1) / 2
		run = 1
	}
	return eq
}

// intervalDisagreement computes D_o and D_e for δ² = (a − b)², on the
// values themselves or, with rk, on their mid-ranks. It uses
// Σ_{i≠j} (x_i − x_j)² = 2m Σ_i (x_i − x̄)² within units and over all pairable
// values, merging unit means and sums of squares as it goes (Chan, Golub &
// LeVeque 1979) so that one pass suffices and large offsets do not cancel.
func intervalDisagreement(r *Ratings, rk *rankMap) (disagreement, error) {
	buf := make([]float64, 0, r.Coders)
	var d disagreement
	var mean, m2 float64
	for u := range r.Units {
		vals := compact(r.Unit(u), buf)
		m := len(vals)
		if m < 2 {
			continue
		}
		if rk != nil {
			for i, v := range vals {
				vals[i] = rk.rank(v)
			}
		}
		mu := 0.0
		for _, v := range vals {
			mu += v
		}
		mu /= float64(m)
		ss := 0.0
		for _, v := range vals {
			ss += (v - mu) * (v - mu)
		}
		d.do += 2 * float64(m) / float64(m-1) * ss
		na, nb := float64(d.n), float64(m)
		delta := mu - mean
		mean += delta * nb / (na + nb)
		m2 += ss + delta*delta*na*nb/(na+nb)
		d.n += m
		d.units++
		d.pairs += m * (m - 1) / 2
	}
	if d.n == 0 {
		return d.check()
	}
	d.do /= float64(d.n)
	d.de = 2 * m2 / float64(d.n-1)
	return d.check()
}

// rankMap maps each pairable value to its mid-rank among the pairable
// values: r_c = Σ_{g<c} n_g + n_c/2. Ordinal δ² is (r_c − r_k)².
type rankMap struct {
	small []float64 // by value, for small non-negative integers
	other map[float64]float64
}

func (m *rankMap) rank(v float64) float64 {
	if isSmall(v) {
		return m.small[int(v)]
	}
	return m.other[v]
}

func midRanks(r *Ratings) *rankMap {
	t := newTally()
	buf := make([]float64, 0, r.Coders)
	for u := range r.Units {
		vals := compact(r.Unit(u), buf)
		if len(vals) < 2 {
			continue
		}
		for _, v := range vals {
			t.add(v)
		}
	}
	vals, counts := t.distinct()
	m := &rankMap{small: make([]float64, smallLimit)}
	below := 0.0
	for i, v := range vals {
		rk := below + float64(counts[i])/2
		if isSmall(v) {
			m.small[int(v)] = rk
		} else {
			if m.other == nil {
				m.other = make(map[float64]float64)
			}
			m.other[v] = rk
		}
		below += float64(counts[i])
	}
	return m
}

// genericDisagreement computes D_o pair by pair within units and D_e over
// pairs of distinct values, for any difference function.
func genericDisagreement(r *Ratings, delta func(a, b float64) float64) (disagreement, error) {
	t := newTally()
	buf := make([]float64, 0, r.Coders)
	var d disagreement
	for u := range r.Units {
		vals := compact(r.Unit(u), buf)
		m := len(vals)
		if m < 2 {
			continue
		}
		d.n += m
		d.units++
		d.pairs += m * (m - 1) / 2
		s := 0.0
		for i, v := range vals {
			t.add(v)
			for _, w := range vals[i+1:] {
				s += delta(v, w)
			}
		}
		d.do += 2 * s / float64(m-1)
	}
	if d.n == 0 {
		return d.check()
	}
	vals, counts := t.distinct()
	s := 0.0
	for i, v := range vals {
		for j := i + 1; j < len(vals); j++ {
			s += float64(counts[i]) * float64(counts[j]) * delta(v, vals[j])
		}
	}
	n := float64(d.n)
	d.do /= n
	d.de = 2 * s / (n * (n - 1))
	return d.check()
}
