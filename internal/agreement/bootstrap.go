package agreement

import (
	"fmt"

	"annotate/internal/iaa"
)

// MaxUndefinedShare is the largest share of bootstrap replicates on which α
// may be undefined (every drawn value the same) for α's interval and
// P(α < min) to be given. Those replicates are left out, and they are the
// draws most unlike the data's disagreement, so the rest give an interval
// too narrow. Beyond this share the interval is withheld with the reason
// (Statistic.CI95Withheld). On 30 units with a value of 3% prevalence
// (TestBootstrapCoverageRare) the 95% BCa intervals from the defined
// replicates held the population α in 58% of simulated studies, and those
// this rule keeps in 71%.
const MaxUndefinedShare = 0.05

// AlphaBootStatistic is α with its bootstrap summary as the reports give
// it: Bootstrap is the number of replicates used (those with α defined),
// BootstrapUndefined the number left out, and when more than
// MaxUndefinedShare of all the replicates drawn were left out the interval
// and P(α < minAlpha) are withheld and CI95Withheld says why.
func AlphaBootStatistic(b iaa.AlphaBoot, minAlpha float64) Statistic {
	st := Statistic{
		Value: ptr(b.Alpha), CI95: &[2]float64{b.Low, b.High},
		Bootstrap: ptr(b.Replicates), BootstrapUndefined: ptr(b.Undefined),
		BootstrapMethod: b.Method.String(), BootstrapInterval: b.Interval, BootstrapWarning: pairsWarning(b.Method),
		MinAlpha: ptr(minAlpha), PBelowMin: ptr(b.PBelow[0]),
	}
	drawn := b.Replicates + b.Undefined
	if float64(b.Undefined) > MaxUndefinedShare*float64(drawn) {
		st.CI95, st.PBelowMin = nil, nil
		st.CI95Withheld = fmt.Sprintf("alpha is undefined on %d of %d bootstrap replicates (every drawn value the same), more than %g%%: an interval from the other %d would be too narrow",
			b.Undefined, drawn, MaxUndefinedShare*100, b.Replicates)
	}
	return st
}
