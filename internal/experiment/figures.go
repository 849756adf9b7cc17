package experiment

import (
	"math"
	"sort"
)

// Figure names one figure a condition is read by.
type Figure int

// The figures of a condition, defined in docs/studies.md. Each is a share
// in [0, 1] except SecondsPerSentence.
const (
	// Accuracy is the share of labels equal to gold.
	Accuracy Figure = iota
	// BalancedAccuracy is the mean of the recall of unfaithful sentences
	// and the recall of faithful ones.
	BalancedAccuracy
	// UnfaithfulF1 is the F1 score of the unfaithful class: 2TP/(2TP+FP+FN).
	UnfaithfulF1
	// SecondsPerSentence is the median active seconds per sentence.
	SecondsPerSentence
	// FollowedWhenRight is the share of labels equal to the assistant's,
	// over sentences where the assistant's label equals gold.
	FollowedWhenRight
	// FollowedWhenWrong is the share of labels equal to the assistant's,
	// over sentences where the assistant's label differs from gold.
	FollowedWhenWrong
	// WrongEqualAssistant is the share of wrong labels (label ≠ gold) that
	// equal the assistant's label (MSumBench's over-reliance figure).
	WrongEqualAssistant
	numFigures
)

// Figures lists every figure in report order.
var Figures = []Figure{Accuracy, BalancedAccuracy, UnfaithfulF1, SecondsPerSentence,
	FollowedWhenRight, FollowedWhenWrong, WrongEqualAssistant}

var figureNames = [numFigures]string{"accuracy", "balanced_accuracy", "unfaithful_f1",
	"seconds_per_sentence", "followed_when_right", "followed_when_wrong", "wrong_equal_assistant"}

// String returns the figure's name as reports and JSON spell it.
func (f Figure) String() string { return figureNames[f] }

// tally holds one condition's weighted counts. Weights are whole numbers
// (how often a bootstrap drew the participant times how often it drew
// the item), so sums are exact.
type tally struct {
	n, tp, fp, fn, tn float64
	right, rightEq    float64 // labels on items the assistant got right; of those, equal to it
	wrong, wrongEq    float64 // labels on items the assistant got wrong; of those, equal to it
	bad, badEq        float64 // wrong labels with an assistant label; of those, equal to it
	secs              []weighted
}

type weighted struct{ x, w float64 }

func (t *tally) add(o Observation, w float64) {
	t.n += w
	switch {
	case o.Label && o.Gold:
		t.tp += w
	case o.Label && !o.Gold:
		t.fp += w
	case !o.Label && o.Gold:
		t.fn += w
	default:
		t.tn += w
	}
	if a, ok := o.assistantLabel(); ok {
		eq := 0.0
		if o.Label == a {
			eq = w
		}
		if a == o.Gold {
			t.right += w
			t.rightEq += eq
		} else {
			t.wrong += w
			t.wrongEq += eq
		}
		if o.Label != o.Gold {
			t.bad += w
			t.badEq += eq
		}
	}
	if !math.IsNaN(o.Seconds) {
		t.secs = append(t.secs, weighted{o.Seconds, w})
	}
}

// ratio returns a/b, or NaN when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// figure returns one figure of the tally; NaN when it is undefined (no
// sentence of the kind it divides by).
func (t *tally) figure(f Figure) float64 {
	switch f {
	case Accuracy:
		return ratio(t.tp+t.tn, t.n)
	case BalancedAccuracy:
		return (ratio(t.tp, t.tp+t.fn) + ratio(t.tn, t.tn+t.fp)) / 2
	case UnfaithfulF1:
		return ratio(2*t.tp, 2*t.tp+t.fp+t.fn)
	case SecondsPerSentence:
		return weightedMedian(t.secs)
	case FollowedWhenRight:
		return ratio(t.rightEq, t.right)
	case FollowedWhenWrong:
		return ratio(t.wrongEq, t.wrong)
	case WrongEqualAssistant:
		return ratio(t.badEq, t.bad)
	}
	panic("experiment: unknown figure")
}

// weightedMedian returns the median of the multiset in which each x
// appears w times: the middle value, or the mean of the two middle values
// when the total weight is even. NaN when the multiset is empty.
func weightedMedian(xs []weighted) float64 {
	var total float64
	for _, v := range xs {
		total += v.w
	}
	if total == 0 {
		return math.NaN()
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i].x < xs[j].x })
	lo, hi := math.Floor((total-1)/2), math.Floor(total/2) // 0-based ranks of the middle values
	return (rankValue(xs, lo) + rankValue(xs, hi)) / 2
}

// rankValue returns the value at 0-based rank r of the sorted multiset xs.
func rankValue(xs []weighted, r float64) float64 {
	var cum float64
	for _, v := range xs {
		cum += v.w
		if cum > r {
			return v.x
		}
	}
	return xs[len(xs)-1].x
}

// Counts are a condition's sizes: distinct participants and items, and
// labels.
type Counts struct {
	Participants int `json:"participants"`
	Items        int `json:"items"`
	Labels       int `json:"labels"`
}

// pointFigures computes every figure of every condition on the data with
// weight 1 per observation; [c][f].
func pointFigures(d *Data) [][]float64 {
	ts := make([]tally, len(d.Conditions))
	for _, o := range d.Observations {
		ts[o.Condition].add(o, 1)
	}
	return figuresOf(ts)
}

func figuresOf(ts []tally) [][]float64 {
	out := make([][]float64, len(ts))
	for c := range ts {
		out[c] = make([]float64, numFigures)
		for _, f := range Figures {
			out[c][f] = ts[c].figure(f)
		}
	}
	return out
}

// counts returns each condition's sizes.
func counts(d *Data) []Counts {
	out := make([]Counts, len(d.Conditions))
	ps := make([]map[int]bool, len(d.Conditions))
	is := make([]map[int]bool, len(d.Conditions))
	for c := range ps {
		ps[c], is[c] = map[int]bool{}, map[int]bool{}
	}
	for _, o := range d.Observations {
		out[o.Condition].Labels++
		ps[o.Condition][o.Participant] = true
		is[o.Condition][o.Item] = true
	}
	for c := range out {
		out[c].Participants, out[c].Items = len(ps[c]), len(is[c])
	}
	return out
}
