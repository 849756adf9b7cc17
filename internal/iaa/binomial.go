package iaa

import (
	"math"
	"math/rand/v2"
)

// binomial draws from the binomial distribution with n trials and success
// probability p, exactly (up to floating-point evaluation of the
// probabilities). Small means n·p < 30 use inversion from 0 (Kachitvichyanukul
// & Schmeiser 1988, algorithm BINV); larger ones transformed rejection
// (btrs), which takes about two uniform draws whatever the mean.
func binomial(rng *rand.Rand, n int, p float64) int {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	case p > 0.5:
		return n - binomial(rng, n, 1-p)
	}
	if float64(n)*p >= 30 {
		return btrs(rng, n, p)
	}
	q := 1 - p
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
