package agreement_test

import (
	"math/rand/v2"
	"testing"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
	"annotate/internal/testkit"
)

// TestBootstrapCoverageRare measures, over 500 simulated studies of 30
// units with a value of 3% prevalence, how often α's 95% units-bootstrap
// interval holds the population α (estimated on 400,000 units): over
// every study with an interval from the replicates where α is defined (as
// every such interval was once shown), and over those the reports show,
// where α was undefined on at most MaxUndefinedShare of the replicates.
// Leaving undefined replicates out narrows the interval, so the intervals
// shown must cover more often than all of them. Neither reaches 95%: with
// so few units holding the rare value even the BCa interval stays too
// narrow (docs/reports.md gives the figures). The seeds are fixed, so the
// counts are too.
func TestBootstrapCoverageRare(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	rng := rand.New(rand.NewPCG(3, 30))
	truth, err := iaa.Alpha(testkit.TwoValueStudy(rng, 400000, 3, 0.03, 0.97), iaa.Nominal)
	if err != nil {
		t.Fatal(err)
	}
	const studies = 500
	var withInterval, coveredAll, shown, coveredShown, undefinedStudies int
	for s := range studies {
		r := testkit.TwoValueStudy(rng, 30, 3, 0.03, 0.97)
		b, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{Replicates: 1000, Seed: uint64(s), Min: []float64{0.667}, Workers: 1})
		if err != nil {
			undefinedStudies++ // α undefined on the data (no rare value given)
			continue
		}
		in := b.Low <= truth && truth <= b.High
		withInterval++
		if in {
			coveredAll++
		}
		if st := agreement.AlphaBootStatistic(b, 0.667); st.CI95 != nil {
			shown++
			if in {
				coveredShown++
			}
		}
	}
	all := float64(coveredAll) / float64(withInterval)
	shownShare := float64(coveredShown) / float64(max(shown, 1))
	t.Logf("population α %.4f; %d studies with α undefined on the data; intervals from the defined replicates cover %d of %d (%.3f); "+
		"shown (at most %.0f%% undefined) %d, covering %d (%.3f); withheld %d",
		truth, undefinedStudies, coveredAll, withInterval, all, agreement.MaxUndefinedShare*100, shown, coveredShown, shownShare, withInterval-shown)
	if shownShare <= all {
		t.Errorf("intervals shown covered %.3f, no more than all intervals (%.3f): withholding the others no longer helps", shownShare, all)
	}
}
