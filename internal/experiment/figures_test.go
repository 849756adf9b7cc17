package experiment

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// obs is a short constructor for tests: label and gold as "u"/"f".
func obs(p, i, c int, label, gold string, asst int8, secs float64) Observation {
	return Observation{Participant: p, Item: i, Condition: c, Label: label == "u", Gold: gold == "u", Assistant: asst, Seconds: secs}
}

// TestFiguresByHand pins every figure on ten labels worked out by hand.
func TestFiguresByHand(t *testing.T) {
	d := &Data{Participants: 2, Items: 5, Conditions: []string{"verdict"}, Baseline: -1}
	// gold u u f f f; participant 0 labels u f f u f; participant 1 labels u u f f u.
	// assistant: u f f u f (right on items 0, 2, 4; wrong on 1, 3).
	gold := []string{"u", "u", "f", "f", "f"}
	asst := []int8{Unfaithful, Faithful, Faithful, Unfaithful, Faithful}
	labels := [][]string{{"u", "f", "f", "u", "f"}, {"u", "u", "f", "f", "u"}}
	secs := [][]float64{{10, 20, 30, 40, 50}, {5, 15, 25, 35, 45}}
	for p := range labels {
		for i := range gold {
			d.Observations = append(d.Observations, obs(p, i, 0, labels[p][i], gold[i], asst[i], secs[p][i]))
		}
	}
	got := pointFigures(d)[0]
	// TP=3 (p0 i0, p1 i0, p1 i1), FN=1 (p0 i1), FP=2 (p0 i3, p1 i4), TN=4.
	// Assistant right on items 0,2,4 (6 labels): equal to it: p0 all 3, p1 i0,i2 (2) → 5/6.
	// Assistant wrong on items 1,3 (4 labels): equal: p0 i1 (f=f), p0 i3 (u=u) → 2/4.
	// Wrong labels: p0 i1, p0 i3, p1 i4 (3), equal to the assistant: p0 i1, p0 i3 → 2/3.
	// Seconds: 5..50, ten values; median (25+30)/2.
	want := map[Figure]float64{
		Accuracy:            7.0 / 10,
		BalancedAccuracy:    (3.0/4 + 4.0/6) / 2,
		UnfaithfulF1:        6.0 / (6 + 2 + 1),
		SecondsPerSentence:  27.5,
		FollowedWhenRight:   5.0 / 6,
		FollowedWhenWrong:   2.0 / 4,
		WrongEqualAssistant: 2.0 / 3,
	}
	for f, w := range want {
		if math.Abs(got[f]-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", f, got[f], w)
		}
	}
}

// refFigures is an independent computation of the figures on a plain
// list of labels (a multiset, each element once), by counting.
func refFigures(os []Observation) map[Figure]float64 {
	var n, correct, tp, fp, fn, tn, right, rightEq, wrong, wrongEq, bad, badEq int
	var secs []float64
	for _, o := range os {
		n++
		if o.Label == o.Gold {
			correct++
		}
		switch {
		case o.Label && o.Gold:
			tp++
		case o.Label:
			fp++
		case o.Gold:
			fn++
		default:
			tn++
		}
		if o.Assistant != NoAssistant {
			a := o.Assistant == Unfaithful
			if a == o.Gold {
				right++
				if o.Label == a {
					rightEq++
				}
			} else {
				wrong++
				if o.Label == a {
					wrongEq++
				}
			}
			if o.Label != o.Gold {
				bad++
				if o.Label == a {
					badEq++
				}
			}
		}
		if !math.IsNaN(o.Seconds) {
			secs = append(secs, o.Seconds)
		}
	}
	div := func(a, b int) float64 {
		if b == 0 {
			return math.NaN()
		}
		return float64(a) / float64(b)
	}
	med := math.NaN()
	if len(secs) > 0 {
		slices.Sort(secs)
		m := len(secs) / 2
		if len(secs)%2 == 1 {
			med = secs[m]
		} else {
			med = (secs[m-1] + secs[m]) / 2
		}
	}
	return map[Figure]float64{
		Accuracy:            div(correct, n),
		BalancedAccuracy:    (div(tp, tp+fn) + div(tn, tn+fp)) / 2,
		UnfaithfulF1:        div(2*tp, 2*tp+fp+fn),
		SecondsPerSentence:  med,
		FollowedWhenRight:   div(rightEq, right),
		FollowedWhenWrong:   div(wrongEq, wrong),
		WrongEqualAssistant: div(badEq, bad),
	}
}

func sameFloat(a, b float64) bool {
	return (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

// TestWeightedTallyMatchesExpanded checks that weighting an observation
// by w gives the figures of the multiset holding it w times.
func TestWeightedTallyMatchesExpanded(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 300 {
		var tl tally
		var expanded []Observation
		for range 1 + rng.IntN(30) {
			o := Observation{Label: rng.IntN(2) == 0, Gold: rng.IntN(3) == 0, Assistant: int8(rng.IntN(3) - 1), Seconds: float64(rng.IntN(50))}
			if rng.IntN(10) == 0 {
				o.Seconds = math.NaN()
			}
			w := rng.IntN(4)
			if w > 0 {
				tl.add(o, float64(w))
			}
			for range w {
				expanded = append(expanded, o)
			}
		}
		want := refFigures(expanded)
		for _, f := range Figures {
			if got := tl.figure(f); !sameFloat(got, want[f]) {
				t.Fatalf("trial %d: %s = %v, want %v", trial, f, got, want[f])
			}
		}
	}
}
