package iaa_test

import (
	"testing"

	"annotate/internal/iaa"
)

// TestCountStatisticsPairableOnly checks that units rated once do not
// enter Scott's π or Gwet's AC1 of PairableCountStatisticsCoded. Two coders rate
// 20 units: 8 both "0", 6 both "1", 6 split; 30 more units have one
// rating, "1". On the 20 units, by the two-coder formulas,
//
//	p_o = 14/20, π_0 = (2·8 + 6)/40 = 0.55, π_1 = 0.45,
//	Scott's π = (p_o − Σπ_k²)/(1 − Σπ_k²) = 0.195/0.495 = 0.393939…,
//	AC1 = (p_o − Σπ_k(1−π_k)/(q−1))/(1 − …) = 0.205/0.505 = 0.405940…;
//
// with the 30 units rated once in π_k (π_1 = 0.78) Scott's π would be
// 0.0432/0.3432 = 0.1259. Each coefficient must rest on the 20 units it
// reports.
func TestCountStatisticsPairableOnly(t *testing.T) {
	b := iaa.NewCodedBuilder(2)
	pairs := twentyPairs()
	for u, p := range pairs {
		b.Add(u, 0, p[0])
		b.Add(u, 1, p[1])
	}
	for u := 20; u < 50; u++ {
		b.Add(u, u%2, 1)
	}
	c := b.Build(50)
	cs := iaa.PairableCountStatisticsCoded(c)

	po := 14.0 / 20
	pi0, pi1 := 22.0/40, 18.0/40
	peScott := pi0*pi0 + pi1*pi1
	peGwet := pi0*(1-pi0) + pi1*(1-pi1) // q − 1 = 1
	for _, tc := range []struct {
		name string
		c    iaa.Coefficient
		err  error
		want float64
	}{
		{"Scott's pi", cs.ScottPi, cs.ScottPiErr, (po - peScott) / (1 - peScott)},
		{"Gwet's AC1", cs.GwetAC1, cs.GwetAC1Err, (po - peGwet) / (1 - peGwet)},
		{"percent agreement", cs.Percent, cs.PercentErr, po},
	} {
		if tc.err != nil {
			t.Fatalf("%s: %v", tc.name, tc.err)
		}
		if !near(tc.c.Value, tc.want, 1e-12) || tc.c.Units != 20 {
			t.Errorf("%s = %.6f on %d units, want %.6f on 20", tc.name, tc.c.Value, tc.c.Units, tc.want)
		}
	}
	// The standard errors are those of the 20 units alone.
	only := iaa.NewCodedBuilder(2)
	for u, p := range pairs {
		only.Add(u, 0, p[0])
		only.Add(u, 1, p[1])
	}
	alone := iaa.CountStatisticsCoded(only.Build(20))
	// CountStatisticsCoded keeps the irrCAC shares, which take every rated unit.
	if irr := iaa.CountStatisticsCoded(c); !near(irr.ScottPi.Value, 0.0432/0.3432, 1e-12) {
		t.Errorf("irrCAC Scott's pi = %v, want %v", irr.ScottPi.Value, 0.0432/0.3432)
	}
	if cs.ScottPi != alone.ScottPi || cs.GwetAC1 != alone.GwetAC1 || cs.Percent != alone.Percent {
		t.Errorf("with units rated once %+v %+v %+v, without %+v %+v %+v", cs.ScottPi, cs.GwetAC1, cs.Percent, alone.ScottPi, alone.GwetAC1, alone.Percent)
	}
}

// TestPairableAC1CountsThePairableCategories: Gwet's AC1 of
// PairableCountStatisticsCoded takes q, its number of categories, from the
// units with two or more ratings, as it takes π_k: a value given only on
// units rated once changes neither. The 20 units of
// TestCountStatisticsPairableOnly are rated "0" and "1"; units rated once
// add the value "2" (one unit, and 30 units, which the tallied path
// takes). On the 20 units q = 2 and AC1 = 0.205/0.505; with q = 3 it
// would be (0.7 − 0.495/2)/(1 − 0.495/2) = 0.601329…
func TestPairableAC1CountsThePairableCategories(t *testing.T) {
	pairs := twentyPairs()
	po := 14.0 / 20
	pi0, pi1 := 22.0/40, 18.0/40
	pe := pi0*(1-pi0) + pi1*(1-pi1) // q − 1 = 1
	want := (po - pe) / (1 - pe)
	for _, once := range []int{1, 30} {
		b := iaa.NewCodedBuilder(2)
		for u, p := range pairs {
			b.Add(u, 0, p[0])
			b.Add(u, 1, p[1])
		}
		for u := 20; u < 20+once; u++ {
			b.Add(u, u%2, 2)
		}
		cs := iaa.PairableCountStatisticsCoded(b.Build(20 + once))
		if cs.GwetAC1Err != nil {
			t.Fatalf("%d units rated once: %v", once, cs.GwetAC1Err)
		}
		if !near(cs.GwetAC1.Value, want, 1e-12) || cs.GwetAC1.Units != 20 {
			t.Errorf("%d units rated once \"2\": AC1 = %.6f on %d units, want %.6f on 20", once, cs.GwetAC1.Value, cs.GwetAC1.Units, want)
		}
	}
	// A single value on every pairable unit leaves AC1 undefined, as it
	// is on those units alone, whatever the units rated once say.
	b := iaa.NewCodedBuilder(2)
	for u := range 5 {
		b.Add(u, 0, 1)
		b.Add(u, 1, 1)
	}
	b.Add(5, 0, 0)
	if cs := iaa.PairableCountStatisticsCoded(b.Build(6)); cs.GwetAC1Err == nil {
		t.Errorf("AC1 = %v with one value on every pairable unit, want undefined", cs.GwetAC1.Value)
	}
}

// twentyPairs are the two coders' ratings of the 20 units of
// TestCountStatisticsPairableOnly: 8 both "0", 6 both "1", 6 split.
func twentyPairs() [][2]float64 {
	pairs := [][2]float64{}
	for range 8 {
		pairs = append(pairs, [2]float64{0, 0})
	}
	for range 6 {
		pairs = append(pairs, [2]float64{1, 1})
	}
	for range 3 {
		pairs = append(pairs, [2]float64{0, 1}, [2]float64{1, 0})
	}
	return pairs
}
