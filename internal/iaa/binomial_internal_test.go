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
