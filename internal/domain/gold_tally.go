package domain

import (
	"slices"
	"sort"
	"strings"
)

// Dimensions of a sentence label that adjudication resolves one by one.
const (
	DimLabel      = "label"       // faithful, unfaithful or borderline
	DimErrorTypes = "error_types" // the set of error types of an unfaithful label
	DimAmbiguity  = "ambiguity"   // the ambiguity flag together with its type
)

// Dimensions lists the adjudicated dimensions in the order pages show them.
var Dimensions = []string{DimLabel, DimErrorTypes, DimAmbiguity}

// VoteCount is how many annotators gave one value of a dimension. Value is
// the label; for error types the sorted codes joined by commas ("" for
// none); for ambiguity "no" or "yes:" followed by the type code.
type VoteCount struct {
	Value string
	N     int
}

// Tally counts the annotators' values of one sentence, dimension by
// dimension. Votes with no faithfulness label are left out.
type Tally struct {
	// N is the number of annotators who labelled the sentence.
	N int
	// Labels, ErrorTypes and Ambiguity count each dimension's values, most
	// frequent first (ties by value). ErrorTypes counts only the annotators
	// who said unfaithful.
	Labels     []VoteCount
	ErrorTypes []VoteCount
	Ambiguity  []VoteCount
	// answered is true when some annotator answered the ambiguity question.
	answered bool
}

// TallyVotes counts labels of one sentence.
func TallyVotes(labels []SentenceLabel) Tally {
	var t Tally
	lab, et, amb := map[string]int{}, map[string]int{}, map[string]int{}
	for _, l := range labels {
		if l.Label == "" {
			continue
		}
		t.N++
		lab[l.Label]++
		if l.Label == LabelUnfaithful {
			et[typeKey(l.ErrorTypes)]++
		}
		if l.Ambiguous != nil {
			t.answered = true
		}
		amb[ambiguityKey(l.Ambiguous, l.AmbiguityType)]++
	}
	t.Labels, t.ErrorTypes, t.Ambiguity = sortedCounts(lab), sortedCounts(et), sortedCounts(amb)
	return t
}

func typeKey(types []string) string {
	return strings.Join(slices.Compact(slices.Sorted(slices.Values(types))), ",")
}

// ambiguityKey folds "not answered" into "no": the labelling page does not
// require the question, so an empty answer means the annotator saw none.
func ambiguityKey(amb *bool, typ string) string {
	if amb == nil || !*amb {
		return "no"
	}
	return "yes:" + typ
}

func sortedCounts(m map[string]int) []VoteCount {
	out := make([]VoteCount, 0, len(m))
	for v, n := range m {
		out = append(out, VoteCount{v, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Value < out[j].Value
	})
	return out
}

func (t Tally) counts(dim string) []VoteCount {
	switch dim {
	case DimLabel:
		return t.Labels
	case DimErrorTypes:
		return t.ErrorTypes
	case DimAmbiguity:
		return t.Ambiguity
	}
	return nil
}

// Disagrees reports whether the annotators gave more than one value of a
// dimension.
func (t Tally) Disagrees(dim string) bool { return len(t.counts(dim)) > 1 }

// Unanimous reports whether at least two annotators labelled the sentence
// and they agree on every dimension. One annotator alone is never
// unanimous: there is nobody to agree with.
func (t Tally) Unanimous() bool {
	if t.N < 2 {
		return false
	}
	for _, d := range Dimensions {
		if t.Disagrees(d) {
			return false
		}
	}
	return true
}

// Split is the minority share of a dimension: 1 - (most frequent value's
// count / voters), 0 when all agree, approaching 1 - 1/k for a k-way tie.
func (t Tally) Split(dim string) float64 {
	c := t.counts(dim)
	if len(c) < 2 {
		return 0
	}
	n := 0
	for _, x := range c {
		n += x.N
	}
	return 1 - float64(c[0].N)/float64(n)
}

// Score orders the adjudication queue, most split first: the largest
// split of any dimension, with the faithfulness label's split breaking
// ties (a split label matters more than a split error type).
func (t Tally) Score() (top, label float64) {
	for _, d := range Dimensions {
		top = max(top, t.Split(d))
	}
	return top, t.Split(DimLabel)
}

// Disagreeing lists the dimensions on which the annotators differ.
func (t Tally) Disagreeing() []string {
	var out []string
	for _, d := range Dimensions {
		if t.Disagrees(d) {
			out = append(out, d)
		}
	}
	return out
}

// strict returns the value more than half of the voters gave, if at least
// two gave it.
func strict(c []VoteCount) (string, bool) {
	n := 0
	for _, x := range c {
		n += x.N
	}
	if len(c) == 0 || c[0].N < 2 || 2*c[0].N <= n {
		return "", false
	}
	return c[0].Value, true
}

// Agreed returns the values every annotator gave, when Unanimous.
func (t Tally) Agreed() (GoldValues, bool) {
	if !t.Unanimous() {
		return GoldValues{}, false
	}
	return t.values(t.Labels[0].Value, firstValue(t.ErrorTypes), t.Ambiguity[0].Value), true
}

// Majority returns the values a strict majority (more than half, and at
// least two annotators) gave on every dimension: the label among all
// annotators, the error-type set among those who said unfaithful, the
// ambiguity answer with its type among all. It fails when any dimension
// has no strict majority.
func (t Tally) Majority() (GoldValues, bool) {
	label, ok := strict(t.Labels)
	if !ok {
		return GoldValues{}, false
	}
	types := ""
	if label == LabelUnfaithful {
		if types, ok = strict(t.ErrorTypes); !ok {
			return GoldValues{}, false
		}
	}
	amb, ok := strict(t.Ambiguity)
	if !ok {
		return GoldValues{}, false
	}
	return t.values(label, types, amb), true
}

// Suggestion is what the adjudication page proposes for each dimension:
// the most frequent value (the first in value order on a tie), and
// whether it is a strict majority.
type Suggestion struct {
	Values   GoldValues
	Majority map[string]bool // by dimension
}

// Suggest returns the most frequent value of each dimension.
func (t Tally) Suggest() Suggestion {
	s := Suggestion{Majority: map[string]bool{}}
	if t.N == 0 {
		return s
	}
	label := t.Labels[0].Value
	_, s.Majority[DimLabel] = strict(t.Labels)
	types := ""
	if label == LabelUnfaithful && len(t.ErrorTypes) > 0 {
		types = t.ErrorTypes[0].Value
		_, s.Majority[DimErrorTypes] = strict(t.ErrorTypes)
	} else {
		s.Majority[DimErrorTypes] = s.Majority[DimLabel]
	}
	_, s.Majority[DimAmbiguity] = strict(t.Ambiguity)
	s.Values = t.values(label, types, t.Ambiguity[0].Value)
	return s
}

func firstValue(c []VoteCount) string {
	if len(c) == 0 {
		return ""
	}
	return c[0].Value
}

// values turns dimension keys back into gold values.
func (t Tally) values(label, types, amb string) GoldValues {
	v := GoldValues{Label: label, ErrorTypes: []string{}}
	if label == LabelUnfaithful && types != "" {
		v.ErrorTypes = strings.Split(types, ",")
	}
	if typ, yes := strings.CutPrefix(amb, "yes:"); yes {
		v.Ambiguous = ptrBool(true)
		v.AmbiguityType = typ
	} else if t.answered {
		v.Ambiguous = ptrBool(false)
	}
	return v
}

func ptrBool(b bool) *bool { return &b }
