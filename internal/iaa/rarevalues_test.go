package iaa_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"annotate/internal/iaa"
	"annotate/internal/testkit"
)

// TestRareCountOf counts by hand: units of one rating do not count, and
// the most common value is taken over the pairable ratings.
func TestRareCountOf(t *testing.T) {
	nan := nan()
	r := iaa.FromColumns(
		[]float64{1, 1, 2, 3, 3},
		[]float64{1, 2, 2, nan, nan},
		[]float64{1, 1, nan, nan, nan},
	)
	// Pairable units 0, 1, 2: values 1,1,1 / 1,2,1 / 2,2 → 1 ×5, 2 ×3.
	// Units 3 and 4 have one rating each and do not count.
	if got := iaa.RareCountOf(iaa.CodedOf(r)); got != (iaa.RareCount{Other: 3, Ratings: 8, Units: 3}) || got.PerUnit() != 8.0/3 {
		t.Errorf("RareCountOf = %+v, want 3 other of 8 ratings on 3 units", got)
	}
	if got := iaa.RareCountOf(iaa.CodedOf(iaa.FromColumns([]float64{4}, []float64{nan}))); got != (iaa.RareCount{}) || got.PerUnit() != 0 {
		t.Errorf("no pairable unit: %+v", got)
	}
}

// TestKappaOther counts by hand: a 2×2 table of 10 units where coder A
// gave the second value 3 times and coder B 2 times holds 5 ratings of it
// among 20, so 5 other than the value given most; and on a 3×3 table the
// most common value is taken over both coders' ratings.
func TestKappaOther(t *testing.T) {
	k, err := iaa.CohenKappaTable([][]float64{{6, 1}, {2, 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if k.Other != 5 {
		t.Errorf("2×2: Other = %v, want 5", k.Other)
	}
	// Row sums 4, 3, 3; column sums 2, 5, 3: values 6, 8, 6 of 20.
	k, err = iaa.CohenKappaTable([][]float64{{2, 2, 0}, {0, 3, 0}, {0, 0, 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if k.Other != 12 {
		t.Errorf("3×3: Other = %v, want 12", k.Other)
	}
}

// rareCoverageStats are the interval statistics TestRareValueIntervalCoverage
// measures, each returning whether it gave an interval and whether it held
// the value truth[name].
var rareCoverageStats = []struct {
	name string
	ci   func(r *iaa.Ratings, c iaa.Counts) (v, lo, hi float64, ok bool)
}{
	{"Cohen's κ (coders 1 and 2)", func(r *iaa.Ratings, _ iaa.Counts) (float64, float64, float64, bool) {
		k, err := iaa.CohenKappa(r, 0, 1, iaa.Unweighted)
		return k.Value, k.Low, k.High, err == nil && k.SE > 0
	}},
	{"Fleiss' κ", func(_ *iaa.Ratings, c iaa.Counts) (float64, float64, float64, bool) {
		k, err := iaa.FleissKappa(c)
		return k.Kappa, k.Low, k.High, err == nil && k.SE > 0
	}},
	{"Scott's π", func(_ *iaa.Ratings, c iaa.Counts) (float64, float64, float64, bool) {
		k, err := iaa.ScottPi(c)
		return k.Value, k.Low, k.High, err == nil && k.SE > 0
	}},
	{"percent agreement", func(_ *iaa.Ratings, c iaa.Counts) (float64, float64, float64, bool) {
		k, err := iaa.PercentAgreement(c)
		return k.Value, k.Low, k.High, err == nil && k.SE > 0
	}},
	{"Gwet's AC1", func(_ *iaa.Ratings, c iaa.Counts) (float64, float64, float64, bool) {
		k, err := iaa.GwetAC1(c)
		return k.Value, k.Low, k.High, err == nil && k.SE > 0
	}},
}

// TestRareValueIntervalCoverage measures how often each 95% interval the
// reports give holds the population value, by how many ratings take the
// rarer value (iaa.RareCount.Other), over 200 simulated studies in
// each of 36 shapes: 20, 30, 50 or 100 units × 3 coders on a two-valued
// label whose rarer value has prevalence 3%, 10% or 30%, coders right
// 97%, 90% or 80% of the time (population values from 200,000 units). α's
// interval is the units bootstrap's (300 replicates; studies where α is
// undefined on more than 5% of them are left out, as the reports withhold
// those). It checks what agreement.RareValueRatings rests on: from 20 rare
// ratings up every interval covers at least 90%; below 10, those of α,
// Cohen's κ, Fleiss' κ and Scott's π cover less than 85%, while percent
// agreement's and AC1's cover at least 88% at any count. The seeds are
// fixed, so the counts are too; the figures go to docs/reports.md.
func TestRareValueIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	edges := []int{0, 5, 10, 15, 20, 1 << 30}
	names := []string{"alpha"}
	for _, s := range rareCoverageStats {
		names = append(names, s.name)
	}
	type tally struct{ n, held [5]int }
	// Cohen's κ of coders 1 and 2 again, by the pair's own count of
	// ratings other than the value they gave most (iaa.Kappa.Other), in
	// the buckets 0–4, 5–9 and 10 or more.
	var pairN, pairHeld [3]int
	got := map[string]*tally{}
	for _, n := range names {
		got[n] = &tally{}
	}
	bucket := func(other int) int {
		k := 0
		for edges[k+1] <= other {
			k++
		}
		return k
	}
	for _, acc := range []float64{0.97, 0.9, 0.8} {
		for _, units := range []int{20, 30, 50, 100} {
			for _, prev := range []float64{0.03, 0.1, 0.3} {
				rng := rand.New(rand.NewPCG(uint64(units), uint64(prev*1000+acc*100)))
				big := testkit.TwoValueStudy(rng, 200000, 3, prev, acc)
				bigCounts, _ := iaa.CountsOf(big)
				truth := map[string]float64{}
				truth["alpha"], _ = iaa.Alpha(big, iaa.Nominal)
				for _, s := range rareCoverageStats {
					truth[s.name], _, _, _ = s.ci(big, bigCounts)
				}
				for study := range 200 {
					r := testkit.TwoValueStudy(rng, units, 3, prev, acc)
					k := bucket(iaa.RareCountOf(iaa.CodedOf(r)).Other)
					c, _ := iaa.CountsOf(r)
					if k, err := iaa.CohenKappa(r, 0, 1, iaa.Unweighted); err == nil && k.SE > 0 {
						b := min(int(k.Other)/5, 2)
						pairN[b]++
						if k.Low <= truth[rareCoverageStats[0].name] && truth[rareCoverageStats[0].name] <= k.High {
							pairHeld[b]++
						}
					}
					for _, s := range rareCoverageStats {
						if _, lo, hi, ok := s.ci(r, c); ok {
							got[s.name].n[k]++
							if lo <= truth[s.name] && truth[s.name] <= hi {
								got[s.name].held[k]++
							}
						}
					}
					b, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{Replicates: 300, Seed: uint64(study), Workers: 1})
					if err == nil && b.Undefined <= 15 {
						got["alpha"].n[k]++
						if b.Low <= truth["alpha"] && truth["alpha"] <= b.High {
							got["alpha"].held[k]++
						}
					}
				}
			}
		}
	}
	share := func(n string, k int) float64 { return float64(got[n].held[k]) / float64(max(got[n].n[k], 1)) }
	pairShare := func(b int) float64 { return float64(pairHeld[b]) / float64(max(pairN[b], 1)) }
	t.Logf("Cohen's κ by the pair's own count: [0, 5): %.3f of %d  [5, 10): %.3f of %d  [10, ...): %.3f of %d",
		pairShare(0), pairN[0], pairShare(1), pairN[1], pairShare(2), pairN[2])
	if pairShare(2) < 0.88 || pairShare(1) >= 0.85 || pairShare(0) >= 0.85 {
		t.Errorf("Cohen's κ by the pair's own count of other ratings no longer splits at 10 (agreement.RarePairRatings)")
	}
	for _, n := range names {
		var line strings.Builder
		for k := range 5 {
			fmt.Fprintf(&line, "  [%d, %d): %.3f of %d", edges[k], min(edges[k+1], 999), share(n, k), got[n].n[k])
		}
		t.Logf("%-27s%s", n, line.String())
		if s := share(n, 4); s < 0.90 {
			t.Errorf("%s: from 20 rare ratings up its intervals held the value in %.3f of studies", n, s)
		}
		for k := range 2 {
			rare := n == "alpha" || strings.Contains(n, "κ") || strings.Contains(n, "π")
			switch s := share(n, k); {
			case rare && s >= 0.85:
				t.Errorf("%s: with %d–%d rare ratings its intervals held the value in %.3f of studies: the caution overstates", n, edges[k], edges[k+1]-1, s)
			case !rare && s < 0.88:
				t.Errorf("%s: with %d–%d rare ratings its intervals held the value in %.3f of studies: it should be flagged too", n, edges[k], edges[k+1]-1, s)
			}
		}
	}
}

// manyValueStudy draws units of 3 coders on a label of len(p) values,
// the unit's truth drawn with probabilities p; each coder gives the truth
// with probability acc and a value drawn uniformly otherwise.
func manyValueStudy(rng *rand.Rand, units int, p []float64, acc float64) *iaa.Ratings {
	r := iaa.NewRatings(units, 3)
	for u := range units {
		x, truth := rng.Float64(), 0
		for truth < len(p)-1 && x >= p[truth] {
			x -= p[truth]
			truth++
		}
		for c := range 3 {
			v := truth
			if rng.Float64() >= acc {
				v = rng.IntN(len(p))
			}
			r.Set(u, c, float64(v))
		}
	}
	return r
}

// TestRareValueIntervalCoverageManyValues repeats the measurement of
// TestRareValueIntervalCoverage on labels of four values (one common, or
// two) and on a five-point scale with a common middle, read as nominal
// (α, Fleiss' κ) and ordinal (α), over 100 studies in each of 24 shapes
// (20, 30 or 50 units × 3 coders, coders right 95% or 85% of the time):
// the count of pairable ratings other than the most common value
// (iaa.RareCount.Other) sorts the intervals as it does on two values.
// It checks that from agreement.RareValueRatings (20) up every interval
// covers at least 0.90, so that the caution is not needed there on these
// shapes either; below, it logs the figures for docs/reports.md.
func TestRareValueIntervalCoverageManyValues(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	edges := []int{0, 10, 20, 1 << 30}
	type tally struct{ n, held [3]int }
	names := []string{"α nominal", "α ordinal", "Fleiss' κ"}
	got := map[string]*tally{}
	for _, n := range names {
		got[n] = &tally{}
	}
	shapes := [][]float64{{0.9, 0.04, 0.03, 0.03}, {0.8, 0.1, 0.05, 0.05}, {0.5, 0.3, 0.1, 0.1}, {0.02, 0.08, 0.8, 0.08, 0.02}}
	for _, acc := range []float64{0.95, 0.85} {
		for _, units := range []int{20, 30, 50} {
			for si, p := range shapes {
				rng := rand.New(rand.NewPCG(uint64(units), uint64(acc*100)+uint64(si)))
				big := manyValueStudy(rng, 200000, p, acc)
				bigCounts, _ := iaa.CountsOf(big)
				fleiss, _ := iaa.FleissKappa(bigCounts)
				nominal, _ := iaa.Alpha(big, iaa.Nominal)
				ordinal, _ := iaa.Alpha(big, iaa.Ordinal)
				for study := range 100 {
					r := manyValueStudy(rng, units, p, acc)
					k := 0
					for edges[k+1] <= iaa.RareCountOf(iaa.CodedOf(r)).Other {
						k++
					}
					add := func(name string, lo, hi, truth float64) {
						got[name].n[k]++
						if lo <= truth && truth <= hi {
							got[name].held[k]++
						}
					}
					c, _ := iaa.CountsOf(r)
					if f, err := iaa.FleissKappa(c); err == nil && f.SE > 0 {
						add("Fleiss' κ", f.Low, f.High, fleiss.Kappa)
					}
					for _, lv := range []struct {
						name  string
						level iaa.Level
						truth float64
					}{{"α nominal", iaa.Nominal, nominal}, {"α ordinal", iaa.Ordinal, ordinal}} {
						b, err := iaa.AlphaBootstrap(r, lv.level, iaa.BootstrapOptions{Replicates: 200, Seed: uint64(study), Workers: 1})
						if err == nil && b.Undefined <= 10 {
							add(lv.name, b.Low, b.High, lv.truth)
						}
					}
				}
			}
		}
	}
	for _, n := range names {
		share := func(k int) float64 { return float64(got[n].held[k]) / float64(max(got[n].n[k], 1)) }
		t.Logf("%-10s [0, 10): %.3f of %d  [10, 20): %.3f of %d  [20, ...): %.3f of %d",
			n, share(0), got[n].n[0], share(1), got[n].n[1], share(2), got[n].n[2])
		if share(2) < 0.90 {
			t.Errorf("%s: from 20 ratings other than the most common value up, its intervals held the value in %.3f of studies", n, share(2))
		}
	}
}

// TestRareValueIntervalCoverageCoders measures α's and Fleiss' κ's
// intervals on units of 5 and of 10 ratings (100 studies in each of 12
// shapes per size: 20, 30 or 50 units, prevalence 3% or 10%, coders right
// 97% or 90%), bucketing the studies two ways: by the raw count of
// ratings other than the most common value, and by that count in units'
// worth at three ratings (count × 3 / ratings per unit), which is what
// agreement.RareValueThreshold scales by. From 20 units' worth up the
// intervals must cover at least 0.88 (α) and 0.86 (Fleiss' κ) at both
// sizes, as on three; by the raw count, 20 and more on units of 10 must
// cover less than that, so that the scaling is needed.
func TestRareValueIntervalCoverageCoders(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	type tally struct{ n, held [2][3]int } // [α, Fleiss][bucket]
	bucket := func(x float64) int {
		switch {
		case x < 10:
			return 0
		case x < 20:
			return 1
		}
		return 2
	}
	for _, m := range []int{5, 10} {
		var raw, scaled tally
		for _, acc := range []float64{0.97, 0.9} {
			for _, units := range []int{20, 30, 50} {
				for _, prev := range []float64{0.03, 0.1} {
					rng := rand.New(rand.NewPCG(uint64(units*m), uint64(prev*1000+acc*100)))
					big := testkit.TwoValueStudy(rng, 100000, m, prev, acc)
					alpha, _ := iaa.Alpha(big, iaa.Nominal)
					bigCounts, _ := iaa.CountsOf(big)
					fleiss, _ := iaa.FleissKappa(bigCounts)
					for study := range 100 {
						r := testkit.TwoValueStudy(rng, units, m, prev, acc)
						rc := iaa.RareCountOf(iaa.CodedOf(r))
						kr, ks := bucket(float64(rc.Other)), bucket(float64(rc.Other)*3/rc.PerUnit())
						add := func(i int, lo, hi, truth float64) {
							raw.n[i][kr]++
							scaled.n[i][ks]++
							if lo <= truth && truth <= hi {
								raw.held[i][kr]++
								scaled.held[i][ks]++
							}
						}
						if b, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{Replicates: 200, Seed: uint64(study), Workers: 1}); err == nil && b.Undefined <= 10 {
							add(0, b.Low, b.High, alpha)
						}
						c, _ := iaa.CountsOf(r)
						if f, err := iaa.FleissKappa(c); err == nil && f.SE > 0 {
							add(1, f.Low, f.High, fleiss.Kappa)
						}
					}
				}
			}
		}
		share := func(tl *tally, i, k int) float64 { return float64(tl.held[i][k]) / float64(max(tl.n[i][k], 1)) }
		for i, name := range []string{"α", "Fleiss' κ"} {
			t.Logf("%2d ratings a unit, %-9s by units' worth: [0, 10) %.3f of %d, [10, 20) %.3f of %d, 20+ %.3f of %d; by raw count 20+: %.3f of %d",
				m, name, share(&scaled, i, 0), scaled.n[i][0], share(&scaled, i, 1), scaled.n[i][1], share(&scaled, i, 2), scaled.n[i][2], share(&raw, i, 2), raw.n[i][2])
		}
		if share(&scaled, 0, 2) < 0.88 || share(&scaled, 1, 2) < 0.86 {
			t.Errorf("%d ratings a unit: from 20 units' worth up α covered %.3f and Fleiss' κ %.3f", m, share(&scaled, 0, 2), share(&scaled, 1, 2))
		}
		if m == 10 && share(&raw, 1, 2) >= 0.86 {
			t.Errorf("10 ratings a unit: by the raw count, from 20 up Fleiss' κ covered %.3f: the scaling would not be needed", share(&raw, 1, 2))
		}
	}
}

// setStudy draws units of 3 coders labelling a set of up to four types
// (encoded as iaa.SetValue does, a bit per type): the unit's truth is the
// empty set with probability 1 − prev, else one type or two; each coder
// gives the truth with probability acc, else the truth with one type
// added or dropped.
func setStudy(rng *rand.Rand, units int, prev, acc float64) *iaa.Ratings {
	r := iaa.NewRatings(units, 3)
	for u := range units {
		truth := 0
		if rng.Float64() < prev {
			truth = 1 << rng.IntN(4)
			if rng.IntN(3) == 0 {
				truth |= 1 << rng.IntN(4)
			}
		}
		for c := range 3 {
			v := truth
			if rng.Float64() >= acc {
				v ^= 1 << rng.IntN(4)
			}
			r.Set(u, c, float64(v))
		}
	}
	return r
}

// TestRareValueIntervalCoverageSets repeats the measurement on sets of
// labels (the report's error types as a set): α at the MASI level and
// Fleiss' κ on whole sets, over 100 studies in each of 24 shapes (20,
// 30, 50 or 100 units × 3 coders; a non-empty truth with probability 5,
// 15 or 30%; coders right 97% or 90%). From 20 ratings other than the
// most common set up both must cover at least 0.90; below, the figures
// are logged for docs/reports.md.
func TestRareValueIntervalCoverageSets(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	var n, held [2][3]int // [α, Fleiss][below 10, 10–19, 20+]
	for _, acc := range []float64{0.97, 0.9} {
		for _, units := range []int{20, 30, 50, 100} {
			for _, prev := range []float64{0.05, 0.15, 0.3} {
				rng := rand.New(rand.NewPCG(uint64(units), uint64(prev*1000+acc*100)))
				big := setStudy(rng, 100000, prev, acc)
				alpha, err := iaa.Alpha(big, iaa.MASI)
				if err != nil {
					t.Fatal(err)
				}
				bigCounts, _ := iaa.CountsOf(big)
				fleiss, _ := iaa.FleissKappa(bigCounts)
				for study := range 100 {
					r := setStudy(rng, units, prev, acc)
					k := min(iaa.RareCountOf(iaa.CodedOf(r)).Other/10, 2)
					if b, err := iaa.AlphaBootstrap(r, iaa.MASI, iaa.BootstrapOptions{Replicates: 200, Seed: uint64(study), Workers: 1}); err == nil && b.Undefined <= 10 {
						n[0][k]++
						if b.Low <= alpha && alpha <= b.High {
							held[0][k]++
						}
					}
					c, _ := iaa.CountsOf(r)
					if f, err := iaa.FleissKappa(c); err == nil && f.SE > 0 {
						n[1][k]++
						if f.Low <= fleiss.Kappa && fleiss.Kappa <= f.High {
							held[1][k]++
						}
					}
				}
			}
		}
	}
	for i, name := range []string{"α (MASI)", "Fleiss' κ (whole sets)"} {
		share := func(k int) float64 { return float64(held[i][k]) / float64(max(n[i][k], 1)) }
		t.Logf("%-22s [0, 10): %.3f of %d  [10, 20): %.3f of %d  [20, ...): %.3f of %d", name, share(0), n[i][0], share(1), n[i][1], share(2), n[i][2])
		if share(2) < 0.90 {
			t.Errorf("%s: from 20 ratings other than the most common set up, its intervals held the value in %.3f of studies", name, share(2))
		}
	}
}
