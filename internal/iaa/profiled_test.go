package iaa_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"annotate/internal/iaa"
)

// TestProfiledMatchesCoded checks that the statistics of a Profiled are
// those of the same ratings as a Coded bit for bit: units with no rating
// and with one, two to five coders a unit (so 1/(m−1) is inexact), every
// level, and profiles listed twice or used by no unit.
func TestProfiledMatchesCoded(t *testing.T) {
	data := map[string]*iaa.Ratings{
		"three":   randomRatings(7, 3000, 3, 5, 0.05),
		"five":    randomRatings(8, 2000, 5, 4, 0.3),
		"sparse":  randomRatings(9, 1500, 12, 3, 0.8),
		"two":     randomRatings(10, 500, 2, 7, 0.2),
		"one-cat": randomRatings(11, 100, 3, 1, 0.1),
		"tiny":    randomRatings(12, 2, 3, 3, 0),
	}
	for name, r := range data {
		c := iaa.CodedOf(r)
		p := iaa.ProfilesOf(c)
		if p.Profiles.Units() >= c.Units() && c.Units() > 100 {
			t.Errorf("%s: %d profiles for %d units", name, p.Profiles.Units(), c.Units())
		}
		padded := padProfiles(p)
		for _, pp := range []*iaa.Profiled{p, padded} {
			if got := pp.Coded(); !sameCoded(got, c) {
				t.Fatalf("%s: Coded() differs from the ratings", name)
			}
			for _, level := range []iaa.Level{iaa.Nominal, iaa.Ordinal, iaa.Interval, iaa.Ratio} {
				want, wantErr := iaa.AlphaCoded(c, level)
				got, gotErr := iaa.AlphaProfiled(pp, level)
				identical(t, name+" α "+level.String(), got, gotErr, want, wantErr)
			}
			want, got := iaa.CountStatisticsCoded(c), iaa.CountStatisticsProfiled(pp)
			identical(t, name+" fleiss", got.Fleiss.Kappa, got.FleissErr, want.Fleiss.Kappa, want.FleissErr)
			identical(t, name+" fleiss se", got.Fleiss.SE, got.FleissErr, want.Fleiss.SE, want.FleissErr)
			identical(t, name+" fleiss se0", got.Fleiss.SE0, got.FleissErr, want.Fleiss.SE0, want.FleissErr)
			if got.Fleiss.Units != want.Fleiss.Units || got.Fleiss.Raters != want.Fleiss.Raters {
				t.Errorf("%s: fleiss units %d × %d, coded %d × %d", name, got.Fleiss.Units, got.Fleiss.Raters, want.Fleiss.Units, want.Fleiss.Raters)
			}
			for _, tc := range []struct {
				what       string
				got, want  iaa.Coefficient
				gErr, wErr error
			}{
				{"percent", got.Percent, want.Percent, got.PercentErr, want.PercentErr},
				{"scott", got.ScottPi, want.ScottPi, got.ScottPiErr, want.ScottPiErr},
				{"gwet", got.GwetAC1, want.GwetAC1, got.GwetAC1Err, want.GwetAC1Err},
			} {
				identical(t, name+" "+tc.what, tc.got.Value, tc.gErr, tc.want.Value, tc.wErr)
				identical(t, name+" "+tc.what+" se", tc.got.SE, tc.gErr, tc.want.SE, tc.wErr)
				if tc.got.Units != tc.want.Units {
					t.Errorf("%s %s: %d units, coded %d", name, tc.what, tc.got.Units, tc.want.Units)
				}
			}
			for _, w := range []iaa.Weighting{iaa.Unweighted, iaa.Linear, iaa.Quadratic} {
				for _, skip := range []bool{false, true} {
					want, got := iaa.PairwiseCohenCoded(c, w, 0, skip), iaa.PairwiseCohenProfiled(pp, w, 0, skip)
					if len(got) != len(want) {
						t.Fatalf("%s: %d pairs, coded %d", name, len(got), len(want))
					}
					for i := range want {
						g, x := got[i], want[i]
						if g.A != x.A || g.B != x.B || g.N != x.N {
							t.Errorf("%s pair %d: %d-%d n=%d, coded %d-%d n=%d", name, i, g.A, g.B, g.N, x.A, x.B, x.N)
						}
						identical(t, name+" kappa", g.Kappa.Value, g.Err, x.Kappa.Value, x.Err)
						identical(t, name+" kappa se", g.Kappa.SE, g.Err, x.Kappa.SE, x.Err)
					}
				}
			}
		}
	}
}

// identical fails unless both results are errors of the same kind or the
// same float64, bit for bit.
func identical(t *testing.T, what string, got float64, gotErr error, want float64, wantErr error) {
	t.Helper()
	if (gotErr == nil) != (wantErr == nil) {
		t.Errorf("%s: error %v, coded %v", what, gotErr, wantErr)
		return
	}
	if gotErr != nil {
		if gotErr.Error() != wantErr.Error() || errors.Is(gotErr, iaa.ErrUndefined) != errors.Is(wantErr, iaa.ErrUndefined) {
			t.Errorf("%s: error %v, coded %v", what, gotErr, wantErr)
		}
		return
	}
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("%s: %v, coded %v", what, got, want)
	}
}

// padProfiles lists every profile twice and adds one no unit has, with
// units spread over both copies at random.
func padProfiles(p *iaa.Profiled) *iaa.Profiled {
	pr := p.Profiles
	n := pr.Units()
	out := &iaa.Coded{Coders: pr.Coders, Values: pr.Values, Start: []int{0}}
	add := func(coders, codes []int32) {
		out.Coder = append(out.Coder, coders...)
		out.Code = append(out.Code, codes...)
		out.Start = append(out.Start, len(out.Code))
	}
	for range 2 {
		for k := range n {
			add(pr.Unit(k))
		}
	}
	if len(pr.Values) > 0 && pr.Coders > 0 {
		add([]int32{0}, []int32{int32(len(pr.Values) - 1)})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	of := make([]int32, len(p.Of))
	for u, k := range p.Of {
		of[u] = k + int32(n*rng.IntN(2))
	}
	return &iaa.Profiled{Profiles: out, Of: of}
}

func sameCoded(a, b *iaa.Coded) bool {
	if a.Coders != b.Coders || a.Units() != b.Units() || len(a.Values) != len(b.Values) {
		return false
	}
	for u := range a.Units() {
		ac, ak := a.Unit(u)
		bc, bk := b.Unit(u)
		if len(ac) != len(bc) {
			return false
		}
		for i := range ac {
			if ac[i] != bc[i] || ak[i] != bk[i] {
				return false
			}
		}
	}
	return true
}
