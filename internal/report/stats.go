package report

import (
	"errors"
	"fmt"
	"math"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
)

// minAlpha is the smallest α the bootstrap's P(α < min) is reported for:
// Krippendorff's lowest conceivable limit for tentative conclusions.
const minAlpha = 0.667

// bootstrap says how α's interval is drawn.
type bootstrap struct {
	replicates int
	seed       uint64
	method     iaa.BootstrapMethod
	workers    int // goroutines drawing the replicates (see iaa.BootstrapOptions)
}

// statistics computes the statistics set of one dimension and Cohen's κ of
// every pair of coders.
func statistics(rt ratings, boot bootstrap) (agreement.Statistics, []iaa.Pair) {
	var s agreement.Statistics
	c := rt.c
	s.KrippendorffAlpha = alphaStatistic(c, rt.spec.iaaLevel(), boot)
	// Units rated once enter none of the statistics (their category
	// shares included), as the page's unit counts say.
	cs := iaa.PairableCountStatisticsCoded(c)
	if f, err := cs.Fleiss, cs.FleissErr; err != nil {
		s.FleissKappa = undefined(err)
	} else {
		// Fleiss' κ needs the same number of ratings on every unit: it is
		// computed on the units with the most common number, and says how
		// many units with two or more ratings it left out.
		s.FleissKappa = agreement.Statistic{Value: ptr(f.Kappa), SE: ptr(f.SE), CI95: &[2]float64{f.Low, f.High}, NUnits: ptr(f.Units), PerUnit: ptr(f.Raters),
			LeftOut: ptr(pairable(c) - f.Units)}
	}
	s.PercentAgreement = coefficient(cs.Percent, cs.PercentErr)
	s.ScottPi = coefficient(cs.ScottPi, cs.ScottPiErr)
	s.GwetAC1 = coefficient(cs.GwetAC1, cs.GwetAC1Err)
	// Pairs of annotators who never labelled the same unit are left out:
	// with many annotators in a production round they are most pairs.
	pairs := iaa.PairwiseCohenCoded(c, rt.spec.weights(), rt.spec.span, true)
	if mean, used, err := iaa.LightKappa(pairs); err != nil {
		s.CohenKappaMean = undefined(err)
		if len(pairs) == 0 && c.Coders >= 2 {
			s.CohenKappaMean = agreement.Statistic{Undefined: "no two annotators labelled a unit in common"}
		}
	} else {
		s.CohenKappaMean = agreement.Statistic{Value: ptr(mean), NPairs: ptr(used)}
	}
	for _, st := range []*agreement.Statistic{&s.KrippendorffAlpha, &s.FleissKappa, &s.CohenKappaMean, &s.PercentAgreement, &s.ScottPi, &s.GwetAC1} {
		finite(st)
	}
	return s, pairs
}

func alphaStatistic(c *iaa.Coded, level iaa.Level, boot bootstrap) agreement.Statistic {
	if boot.replicates == 0 {
		a, err := iaa.AlphaCoded(c, level)
		if err != nil {
			return undefined(err)
		}
		return agreement.Statistic{Value: ptr(a)}
	}
	b, err := iaa.AlphaBootstrapCoded(c, level, iaa.BootstrapOptions{Replicates: boot.replicates, Seed: boot.seed, Min: []float64{minAlpha}, Method: boot.method,
		Workers: boot.workers})
	if err != nil {
		return undefined(err)
	}
	return agreement.AlphaBootStatistic(b, minAlpha)
}

func coefficient(c iaa.Coefficient, err error) agreement.Statistic {
	if err != nil {
		return undefined(err)
	}
	return agreement.Statistic{Value: ptr(c.Value), SE: ptr(c.SE), CI95: &[2]float64{c.Low, c.High}, NUnits: ptr(c.Units)}
}

func kappaStatistic(k iaa.Kappa, err error) agreement.Statistic {
	if err != nil {
		return undefined(err)
	}
	st := agreement.Statistic{Value: ptr(k.Value), SE: ptr(k.SE), CI95: &[2]float64{k.Low, k.High}, NUnits: ptr(int(k.N)),
		CI95Caution: agreement.PairCaution(k)}
	finite(&st)
	return st
}

// undefined turns an error into an undefined statistic with its reason.
func undefined(err error) agreement.Statistic {
	var u *iaa.UndefinedError
	if errors.As(err, &u) {
		return agreement.Statistic{Undefined: u.Reason}
	}
	return agreement.Statistic{Undefined: err.Error()}
}

// finite makes a statistic with a NaN or infinite number undefined, so no
// such number reaches a page or the JSON.
func finite(s *agreement.Statistic) {
	if s.Value == nil {
		return
	}
	for _, x := range []*float64{s.Value, s.SE, s.PBelowMin} {
		if x != nil && !isFinite(*x) {
			*s = agreement.Statistic{Undefined: "not a finite number"}
			return
		}
	}
	if s.CI95 != nil && !(isFinite(s.CI95[0]) && isFinite(s.CI95[1])) {
		s.CI95 = nil
	}
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func ptr[T any](v T) *T { return &v }

// z975 is the 0.975 quantile of the standard normal distribution.
const z975 = 1.959963984540054

// rate is K/N with the Wilson score 95% interval (Wilson 1927), which
// stays inside [0, 1] and behaves at K = 0 or K = N.
func rate(k, n int, none string) Rate {
	if n == 0 {
		return Rate{Undefined: none}
	}
	p := float64(k) / float64(n)
	z2 := z975 * z975
	nf := float64(n)
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z975 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Rate{K: k, N: n, Value: ptr(p), CI95: &[2]float64{math.Max(0, centre-half), math.Min(1, centre+half)}}
}

// meanStatistic is the mean of per-unit values with a normal 95% interval
// (mean ± 1.96·sd/√n, clipped to [0, 1]).
func meanStatistic(xs []float64, none string) agreement.Statistic {
	n := len(xs)
	if n == 0 {
		return agreement.Statistic{Undefined: none}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	var ss float64
	short := 0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
		if x < 1 {
			short++
		}
	}
	return meanInterval(n, mean, ss, short)
}

// sharesStatistic is meanStatistic of the shares a/d counted in agreed by
// (d, a) (see shareIndex): the values taken in that order, each as many
// times as counted.
func sharesStatistic(agreed []int, none string) agreement.Statistic {
	n := 0
	var sum float64
	share := func(i int) float64 {
		// i = shareIndex(d, a) = d(d+1)/2 − 1 + a with 0 ≤ a ≤ d.
		d := 1
		for shareIndex(d+1, 0) <= i {
			d++
		}
		return float64(i-shareIndex(d, 0)) / float64(d)
	}
	for i, c := range agreed {
		if c > 0 {
			n += c
			sum += float64(c) * share(i)
		}
	}
	if n == 0 {
		return agreement.Statistic{Undefined: none}
	}
	mean := sum / float64(n)
	var ss float64
	short := 0
	for i, c := range agreed {
		if c > 0 {
			x := share(i) - mean
			ss += float64(c) * x * x
			if share(i) < 1 {
				short += c
			}
		}
	}
	return meanInterval(n, mean, ss, short)
}

// FewDisagreements is the number of units where an annotator's
// agreement with the rest falls short of 1 below which its interval is
// flagged (Statistic.CI95Caution): over simulated annotators
// (TestAgreementWithRestCoverage) the normal interval held the true mean
// in none of the studies where no unit fell short (it is the single point
// 1), in 88% of those with one or two, and in 94–95% with more.
const FewDisagreements = 3

// meanInterval is the statistic of the mean of n values in [0, 1] with
// the sum ss of their squared deviations from it, short of them below 1.
func meanInterval(n int, mean, ss float64, short int) agreement.Statistic {
	st := agreement.Statistic{Value: ptr(mean), NUnits: ptr(n)}
	if n > 1 {
		se := math.Sqrt(ss / float64(n-1) / float64(n))
		st.SE = ptr(se)
		st.CI95 = &[2]float64{math.Max(0, mean-z975*se), math.Min(1, mean+z975*se)}
		switch {
		case short == 0:
			st.CI95Caution = fmt.Sprintf("none of these %d units shows any disagreement: the interval is the single point 1, which says nothing about how often they would disagree", n)
		case short < FewDisagreements:
			st.CI95Caution = fmt.Sprintf("only %d of these %d units show any disagreement (fewer than %d): this interval is too narrow, holding the true value in about 88%% of simulated studies",
				short, n, FewDisagreements)
		}
	}
	finite(&st)
	return st
}

// pairable counts the units of c with two or more ratings.
func pairable(c *iaa.Coded) int {
	n := 0
	for u := range c.Units() {
		if c.Start[u+1]-c.Start[u] >= 2 {
			n++
		}
	}
	return n
}
