package iaa

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBinomialMoments checks the sampler's mean and variance against
// n·p and n·p·(1−p) for small and large means, within 5 standard errors.
func TestBinomialMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n int
		p float64
	}{{10, 0.3}, {50, 0.5}, {1000, 0.01}, {100000, 0.37}, {1500000, 0.8}, {7, 1}, {7, 0}} {
		const draws = 20000
		var s, ss float64
		for range draws {
			x := float64(binomial(rng, c.n, c.p))
			if x < 0 || x > float64(c.n) {
				t.Fatalf("Binomial(%d, %v) drew %v", c.n, c.p, x)
			}
			s += x
			ss += x * x
		}
		mean := s / draws
		variance := ss/draws - mean*mean
		wantMean := float64(c.n) * c.p
		wantVar := wantMean * (1 - c.p)
		if se := math.Sqrt(wantVar / draws); math.Abs(mean-wantMean) > 5*se+1e-9 {
			t.Errorf("Binomial(%d, %v): mean %v, want %v", c.n, c.p, mean, wantMean)
		}
		if wantVar > 0 && math.Abs(variance/wantVar-1) > 0.1 {
			t.Errorf("Binomial(%d, %v): variance %v, want %v", c.n, c.p, variance, wantVar)
		}
	}
}

func TestMultinomialSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := []float64{0.5, 0, 0.25, 0.25}
	x := make([]int, 4)
	var tot [4]float64
	for range 5000 {
		multinomial(rng, 1000, p, x)
		s := 0
		for i, k := range x {
			s += k
			tot[i] += float64(k)
		}
		if s != 1000 || x[1] != 0 {
			t.Fatalf("draw %v", x)
		}
	}
	for i, pi := range p {
		if math.Abs(tot[i]/5000/1000-pi) > 0.005 {
			t.Errorf("outcome %d: share %v, want %v", i, tot[i]/5000/1000, pi)
		}
	}
}

// TestBinomialDistribution compares the sampler's draws with the
// binomial probabilities, computed here from log-gamma, by a chi-square
// test over cells of expected count at least 20 (the tails pooled), on
// means either side of the switch from inversion to rejection. The seed
// is fixed; the bound is the statistic's mean plus seven standard
// deviations, far above what a correct sampler gives. Rejection that
// shifts its candidates by one, compares a probability with a log-
// probability, or misweights the distribution's tails fails it.
func TestBinomialDistribution(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		n int
		p float64
	}{{80, 0.3}, {60, 0.5}, {100, 0.3}, {1000, 0.5}, {10125, 0.05}, {10125, 0.83}, {500000, 0.2}, {1500000, 0.0001}} {
		const draws = 200000
		counts := map[int]int{}
		for range draws {
			counts[binomial(rng, c.n, c.p)]++
		}
		lgN, _ := math.Lgamma(float64(c.n) + 1)
		pmf := func(k int) float64 {
			a, _ := math.Lgamma(float64(k) + 1)
			b, _ := math.Lgamma(float64(c.n-k) + 1)
			return math.Exp(lgN - a - b + float64(k)*math.Log(c.p) + float64(c.n-k)*math.Log1p(-c.p))
		}
		// Cells: single values with expected count ≥ 20, and the two
		// tails beyond them pooled.
		mean := float64(c.n) * c.p
		lo, hi := int(mean), int(mean)
		for lo > 0 && pmf(lo-1)*draws >= 20 {
			lo--
		}
		for hi < c.n && pmf(hi+1)*draws >= 20 {
			hi++
		}
		var chi2, inside, below, above, pBelow float64
		for k := lo; k <= hi; k++ {
			e := pmf(k) * draws
			d := float64(counts[k]) - e
			chi2 += d * d / e
			inside += pmf(k)
		}
		for k, n := range counts {
			if k < lo {
				below += float64(n)
			} else if k > hi {
				above += float64(n)
			}
		}
		// The tails' probabilities: below lo summed directly, above by
		// what is left.
		for k := 0; k < lo; k++ {
			pBelow += pmf(k)
		}
		pAbove := max(0, 1-inside-pBelow)
		cells := hi - lo + 1
		for _, tail := range []struct{ got, p float64 }{{below, pBelow}, {above, pAbove}} {
			if e := tail.p * draws; e >= 1 {
				chi2 += (tail.got - e) * (tail.got - e) / e
				cells++
			} else if tail.got > 10 {
				t.Errorf("Binomial(%d, %v): %v draws in a tail expecting %.2g", c.n, c.p, tail.got, e)
			}
		}
		df := float64(cells - 1)
		if bound := df + 7*math.Sqrt(2*df); chi2 > bound {
			t.Errorf("Binomial(%d, %v): chi-square %.1f over %d cells, above %.1f", c.n, c.p, chi2, cells, bound)
		}
	}
}

// TestStirlingCorrection checks fc(k), the error of Stirling's formula,
// against log-gamma where that is accurate to 1e-14 (k up to 50), across
// the switch from table to series.
func TestStirlingCorrection(t *testing.T) {
	for k := 0.0; k <= 50; k++ {
		lg, _ := math.Lgamma(k + 1)
		want := lg - ((k+0.5)*math.Log(k+1) - (k + 1) + 0.5*math.Log(2*math.Pi))
		if d := math.Abs(stirlingCorrection(k) - want); d > 2e-14 {
			t.Errorf("fc(%v) = %v, want %v", k, stirlingCorrection(k), want)
		}
	}
}
