package agreement

import (
	"fmt"

	"annotate/internal/iaa"
)

// RareValueRatings is the number of pairable ratings other than the most
// common value below which the intervals of α, Fleiss' κ, Scott's π and
// the pairwise Cohen's κ are flagged as too narrow (Statistics.
// Report.IntervalCaution). On two-valued labels of 3 coders
// (TestRareValueIntervalCoverage in internal/iaa) their 95% intervals held
// the population value in 8% (α) to 29% of simulated studies with fewer
// than 5 such ratings, 71–78% with 5–9, 81–90% with 10–14, 88–93% with
// 15–19 and 93–94% from 20 up; percent agreement's and Gwet's AC1's held
// it in 92–95% at every count, and are not flagged.
const RareValueRatings = 20

// RareValueCaution says why the intervals of s are too narrow when other,
// the pairable ratings other than the most common value (see
// iaa.OtherThanMostCommon), are fewer than RareValueRatings and α, Fleiss'
// κ or Scott's π has an interval; else it is "".
func RareValueCaution(s *Statistics, other int) string {
	if other >= RareValueRatings || (s.KrippendorffAlpha.CI95 == nil && s.FleissKappa.CI95 == nil && s.ScottPi.CI95 == nil) {
		return ""
	}
	return fmt.Sprintf("the pairable ratings hold only %d other than the most common value (fewer than %d): the 95%% intervals of alpha, Fleiss' kappa, Scott's pi and Cohen's kappa are too narrow here, holding the true value in as few as %s of simulated studies",
		other, RareValueRatings, rareCoverage(other))
}

// rareCoverage is the lowest coverage measured at that many other
// ratings (see RareValueRatings).
func rareCoverage(other int) string {
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
