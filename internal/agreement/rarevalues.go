package agreement

import "fmt"

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
	return fmt.Sprintf("only %d pairable ratings differ from the most common value (fewer than %d): the 95%% intervals of alpha, Fleiss' kappa, Scott's pi and Cohen's kappa are too narrow here, holding the true value in as few as %s of simulated studies",
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
