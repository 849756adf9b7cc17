package iaa_test

import (
	"math/rand/v2"
	"testing"

	"annotate/internal/iaa"
)

// benchCategorical simulates units × coders ratings on a 1..k scale: each
// unit has a true category that each coder reports with probability 0.7
// (else a uniform guess); about 2% of ratings are missing.
func benchCategorical(units, coders, k int) *iaa.Ratings {
	rng := rand.New(rand.NewPCG(1, 2))
	r := iaa.NewRatings(units, coders)
	for u := range units {
		truth := float64(1 + rng.IntN(k))
		for c := range coders {
			switch x := rng.Float64(); {
			case x < 0.02:
			case x < 0.72:
				r.Set(u, c, truth)
			default:
				r.Set(u, c, float64(1+rng.IntN(k)))
			}
		}
	}
	return r
}

// benchContinuous simulates real-valued ratings (true score plus coder
// noise), so that nearly every value is distinct.
func benchContinuous(units, coders int) *iaa.Ratings {
	rng := rand.New(rand.NewPCG(3, 4))
	r := iaa.NewRatings(units, coders)
	for u := range units {
		truth := rng.NormFloat64() * 10
		for c := range coders {
			if rng.Float64() >= 0.02 {
				r.Set(u, c, truth+rng.NormFloat64()*4)
			}
		}
	}
	return r
}

func benchAlpha(b *testing.B, r *iaa.Ratings, level iaa.Level) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := iaa.Alpha(r, level); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.Units*r.Coders)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mcells/s")
}

func BenchmarkAlphaNominal1Mx3(b *testing.B) {
	benchAlpha(b, benchCategorical(1_000_000, 3, 5), iaa.Nominal)
}

func BenchmarkAlphaOrdinal1Mx3(b *testing.B) {
	benchAlpha(b, benchCategorical(1_000_000, 3, 5), iaa.Ordinal)
}

func BenchmarkAlphaInterval1Mx3(b *testing.B) {
	benchAlpha(b, benchContinuous(1_000_000, 3), iaa.Interval)
}

func BenchmarkAlphaRatio1Mx3(b *testing.B) {
	benchAlpha(b, benchCategorical(1_000_000, 3, 5), iaa.Ratio)
}

func benchBootstrap(b *testing.B, r *iaa.Ratings, level iaa.Level) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := iaa.AlphaBootstrap(r, level, iaa.BootstrapOptions{
			Replicates: 1000, Seed: 1, Min: []float64{0.667, 0.8},
		}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBootstrapNominal100kx3(b *testing.B) {
	benchBootstrap(b, benchCategorical(100_000, 3, 5), iaa.Nominal)
}

func BenchmarkBootstrapInterval100kx3(b *testing.B) {
	benchBootstrap(b, benchContinuous(100_000, 3), iaa.Interval)
}

func BenchmarkFleiss1Mx3(b *testing.B) {
	r := benchCategorical(1_000_000, 3, 5)
	b.ReportAllocs()
	for b.Loop() {
		c, _ := iaa.CountsOf(r)
		if _, err := iaa.FleissKappa(c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPairwiseCohen1Mx3(b *testing.B) {
	r := benchCategorical(1_000_000, 3, 5)
	b.ReportAllocs()
	for b.Loop() {
		iaa.PairwiseCohen(r, iaa.Quadratic)
	}
}
