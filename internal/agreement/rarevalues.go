package agreement

import (
	"fmt"
	"math"
	"strconv"

	"annotate/internal/iaa"
)

// RareValueRatings is the number of pairable ratings other than the most
// common value, on units of three ratings, below which the intervals of
// α, Fleiss' κ, Scott's π and the pairwise Cohen's κ are flagged as too
// narrow (Report.IntervalCaution and report.Dimension.IntervalCaution).
// On two-valued labels of 3 coders (TestRareValueIntervalCoverage in
// internal/iaa) their 95% intervals held the population value in 8% (α)
// to 29% of simulated studies with fewer than 5 such ratings, 71–78% with
// 5–9, 81–90% with 10–14, 88–93% with 15–19 and 93–94% from 20 up;
// percent agreement's and Gwet's AC1's held it in 92–95% at every count,
// and are not flagged. What counts is units' worth of rare ratings: a unit
// of m ratings with the rare truth gives about m of them, so with m
// ratings a unit the threshold is RareValueRatings·m/3
// (TestRareValueIntervalCoverageCoders checks 5 and 10).
const RareValueRatings = 20

// RareValueThreshold is the number of other ratings below which the
// intervals are flagged, for units of perUnit ratings on average (see
// RareValueRatings): 20 for three.
func RareValueThreshold(perUnit float64) int {
	return int(math.Ceil(RareValueRatings*perUnit/3 - 1e-9))
}

// RareValueCaution says why the intervals of s are too narrow when rc's
// pairable ratings other than the most common value are fewer than
// RareValueThreshold and α, Fleiss' κ or Scott's π has an interval; else
// it is "".
func RareValueCaution(s *Statistics, rc iaa.RareCount) string {
	limit := RareValueThreshold(rc.PerUnit())
	if rc.Other >= limit || (s.KrippendorffAlpha.CI95 == nil && s.FleissKappa.CI95 == nil && s.ScottPi.CI95 == nil) {
		return ""
	}
	fewer := fmt.Sprintf("fewer than %d", limit)
	if limit != RareValueRatings {
		fewer += fmt.Sprintf(" at %s ratings a unit", strconv.FormatFloat(math.Round(rc.PerUnit()*10)/10, 'f', -1, 64))
	}
	// The coverage measured at the same units' worth on three ratings.
	equivalent := float64(rc.Other) * 3 / rc.PerUnit()
	return fmt.Sprintf("the pairable ratings hold only %d other than the most common value (%s): the 95%% intervals of alpha, Fleiss' kappa, Scott's pi and Cohen's kappa are too narrow here, holding the true value in as few as %s of simulated studies",
		rc.Other, fewer, rareCoverage(equivalent))
}

// rareCoverage is the lowest coverage measured at that many other
// ratings on units of three (see RareValueRatings).
func rareCoverage(other float64) string {
	switch {
	case other < 5:
		return "8%"
	case other < 10:
		return "71%"
	case other < 15:
		return "81%"
	}
	return "88%"
}

// RarePairRatings is, for Cohen's κ between two coders (a pair, or an
// annotator against the others' majority or against gold), the number of
// the two sides' ratings other than the value they gave most below which
// its interval is flagged as too narrow (Pair.CI95Caution,
// Statistic.CI95Caution). On two coders of the simulated studies of
// TestRareValueIntervalCoverage the 95% interval held the population κ in
// 51% of studies with fewer than 5 such ratings, 78% with 5–9 and 92%
// from 10 up.
const RarePairRatings = 10

// PairCaution says why k's interval is too narrow, when fewer than
// RarePairRatings of the two sides' ratings differ from the value they
// gave most; else "".
func PairCaution(k iaa.Kappa) string {
	if k.Other >= RarePairRatings {
		return ""
	}
	cover := "78%"
	if k.Other < 5 {
		cover = "51%"
	}
	return fmt.Sprintf("the two sides' ratings hold only %.0f other than the value they gave most (fewer than %d): this interval is too narrow, holding the true value in as few as %s of simulated studies",
		k.Other, RarePairRatings, cover)
}
