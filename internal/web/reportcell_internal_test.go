package web

import (
	"strings"
	"testing"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
)

// TestAlphaCellGivesReplicatesUsed checks that the report page's α cell
// says how many bootstrap replicates its interval rests on when α was
// undefined on some (962 of 1000 here), and shows no interval, with the
// count, when more than 5% were left out (380 of 1000).
func TestAlphaCellGivesReplicatesUsed(t *testing.T) {
	for _, tc := range []struct {
		undefined int
		ci, basis string
	}{
		{38, "[0.200, 0.700]", "interval from 962 of 1000 replicates"},
		{380, "", "no interval: α undefined on 380 of 1000 bootstrap replicates"},
	} {
		st := agreement.AlphaBootStatistic(iaa.AlphaBoot{Alpha: 0.5, Low: 0.2, High: 0.7, PBelow: []float64{0.9},
			Replicates: 1000 - tc.undefined, Undefined: tc.undefined}, 0.667)
		c := statCell("krippendorff_alpha", &st)
		if c.CI != tc.ci || !strings.HasPrefix(c.Note, tc.basis) {
			t.Errorf("%d undefined: ci %q, note %q; want %q, %q", tc.undefined, c.CI, c.Note, tc.ci, tc.basis)
		}
	}
}

// TestFleissCellGivesUnitsUsed checks that the page's Fleiss' κ cell says
// how many units, with how many ratings, it rests on and how many
// pairable units it left out.
func TestFleissCellGivesUnitsUsed(t *testing.T) {
	v, n, m, out := 0.4, 5, 3, 3
	c := statCell("fleiss_kappa", &agreement.Statistic{Value: &v, NUnits: &n, PerUnit: &m, LeftOut: &out})
	if c.Basis != "5 units × 3 ratings" || c.Note != "3 pairable units with another number of ratings left out" {
		t.Errorf("basis %q, note %q", c.Basis, c.Note)
	}
}
