package report

import (
	"math/rand/v2"
	"testing"
)

// restShare draws one unit of a two-valued label (second value with
// probability 0.2) rated by an annotator and two others, each right with
// probability acc, and returns the share of the others' ratings equal to
// the annotator's: what "agreement with the rest" averages.
func restShare(rng *rand.Rand, acc float64) float64 {
	truth := rng.Float64() < 0.2
	rate := func() bool { return (rng.Float64() < acc) == truth }
	mine, share := rate(), 0.0
	for range 2 {
		if rate() == mine {
			share += 0.5
		}
	}
	return share
}

// TestAgreementWithRestCoverage measures how often the normal 95%
// interval of an annotator's agreement with the rest (meanStatistic)
// holds the true mean, over 1,000 simulated annotators in each of 30
// shapes (10, 20, 30, 50 or 100 units; everyone right 70, 80, 90, 95, 97
// or 99% of the time; the true mean from 400,000 units), by how many of
// the units fall short of full agreement. It checks what FewDisagreements
// rests on: with none the interval (the point 1) never covers, with one or
// two it covers less than 92%, from 3 up at least 90% in each bucket, and
// the statistic carries a caution exactly below 3.
func TestAgreementWithRestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	edges := []int{0, 1, 3, 5, 10, 1 << 30}
	var n, held [5]int
	rng := rand.New(rand.NewPCG(5, 6))
	for _, acc := range []float64{0.7, 0.8, 0.9, 0.95, 0.97, 0.99} {
		truth := 0.0
		for range 400000 {
			truth += restShare(rng, acc) / 400000
		}
		for _, units := range []int{10, 20, 30, 50, 100} {
			xs := make([]float64, units)
			for range 1000 {
				short := 0
				for i := range xs {
					xs[i] = restShare(rng, acc)
					if xs[i] < 1 {
						short++
					}
				}
				st := meanStatistic(xs, "")
				if (st.CI95Caution != "") != (short < FewDisagreements) {
					t.Fatalf("%d units short of 1: caution %q", short, st.CI95Caution)
				}
				k := 0
				for edges[k+1] <= short {
					k++
				}
				n[k]++
				if st.CI95[0] <= truth && truth <= st.CI95[1] {
					held[k]++
				}
			}
		}
	}
	share := func(k int) float64 { return float64(held[k]) / float64(max(n[k], 1)) }
	for k := range 5 {
		t.Logf("units short of full agreement [%d, %d): interval held the mean in %.3f of %d", edges[k], min(edges[k+1], 999), share(k), n[k])
	}
	if share(0) > 0.05 || share(1) >= 0.92 || share(2) < 0.90 || share(3) < 0.90 || share(4) < 0.90 {
		t.Errorf("coverage by units short of 1: none %.3f, 1–2 %.3f, 3–4 %.3f, 5–9 %.3f, 10+ %.3f: FewDisagreements (3) no longer splits there",
			share(0), share(1), share(2), share(3), share(4))
	}
}

// TestRateCoverage measures how often rate's Wilson 95% interval holds
// the true proportion, over 2,000 simulated counts in each of 16 shapes
// (p 0.5, 0.8, 0.95 or 0.99; 10, 30, 100 or 300 sentences): accuracy
// against gold is such a rate. Each shape must cover at least 88%; the
// range goes to docs/reports.md.
func TestRateCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	lo, hi := 1.0, 0.0
	for _, p := range []float64{0.5, 0.8, 0.95, 0.99} {
		for _, n := range []int{10, 30, 100, 300} {
			held := 0
			for range 2000 {
				k := 0
				for range n {
					if rng.Float64() < p {
						k++
					}
				}
				if r := rate(k, n, ""); r.CI95[0] <= p && p <= r.CI95[1] {
					held++
				}
			}
			share := float64(held) / 2000
			lo, hi = min(lo, share), max(hi, share)
			if share < 0.88 {
				t.Errorf("p %.2f over %d sentences: the Wilson interval held it in %.3f of counts", p, n, share)
			}
		}
	}
	t.Logf("the Wilson interval held the true proportion in %.3f–%.3f of counts across the shapes", lo, hi)
}
