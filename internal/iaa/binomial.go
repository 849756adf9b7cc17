package iaa

import (
	"math"
	"math/rand/v2"
)

// binomial draws from the binomial distribution with n trials and success
// probability p, exactly (up to floating-point evaluation of the
// probabilities). Small means n·p < 30 use inversion from 0 (Kachitvichyanukul
// & Schmeiser 1988, algorithm BINV); larger ones invert from the mode
// outwards, alternating down and up (Kemp 1986), which takes O(√(np(1−p)))
// steps.
func binomial(rng *rand.Rand, n int, p float64) int {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	case p > 0.5:
		return n - binomial(rng, n, 1-p)
	}
	q := 1 - p
	if float64(n)*p < 30 {
		s := p / q
		a := float64(n+1) * s
		r := math.Pow(q, float64(n))
		u := rng.Float64()
		x := 0
		for u > r {
			u -= r
			x++
			if x > n {
				return n
			}
			r *= a/float64(x) - s
		}
		return x
	}
	m := int(float64(n+1) * p)
	lg := func(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	pm := math.Exp(lg(n) - lg(m) - lg(n-m) + float64(m)*math.Log(p) + float64(n-m)*math.Log(q))
	u := rng.Float64() - pm
	if u <= 0 {
		return m
	}
	lo, hi, plo, phi := m, m, pm, pm
	odds := p / q
	for lo > 0 || hi < n {
		if lo > 0 {
			plo *= float64(lo) / float64(n-lo+1) / odds
			lo--
			if u -= plo; u <= 0 {
				return lo
			}
		}
		if hi < n {
			phi *= float64(n-hi) / float64(hi+1) * odds
			hi++
			if u -= phi; u <= 0 {
				return hi
			}
		}
	}
	return m // rounding left a sliver of probability unassigned
}

// multinomial draws counts of n trials over outcomes with probabilities p
// (summing to 1) into out, by conditional binomials: outcome i gets
// Binomial(n − drawn so far, p_i / (mass left)).
func multinomial(rng *rand.Rand, n int, p []float64, out []int) {
	left := 1.0
	for i, pi := range p {
		if i == len(p)-1 || n == 0 {
			out[i] = n
			for j := i + 1; j < len(p); j++ {
				out[j] = 0
			}
			return
		}
		x := 0
		if left > 0 {
			x = binomial(rng, n, min(1, pi/left))
		}
		out[i] = x
		n -= x
		left -= pi
	}
}
