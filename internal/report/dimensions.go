package report

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"annotate/internal/iaa"
	"annotate/internal/tasks"
)

// Levels of a dimension.
const (
	LevelSentence = "sentence"
	LevelSummary  = "summary"
)

// Scales of a dimension.
const (
	scaleNominal = "nominal"
	scaleOrdinal = "ordinal"
	scaleMASI    = "masi"
)

// spec describes one dimension at one level: how to name its values and
// how to compare them.
type spec struct {
	name, title, level, scale string
	// values names the codes 0..k−1 of a nominal dimension; nil for an
	// ordinal one, whose values are numbers.
	values []string
	// setNames names the labels of a set-valued dimension by bit.
	setNames []string
	// positive is the code of the class balanced accuracy treats as
	// positive (unfaithful, yes, present), −1 when the dimension is not
	// binary.
	positive float64
}

func (s *spec) key() string { return s.name + "@" + s.level }

// valueName is how a value reads in a report.
func (s *spec) valueName(v float64) string {
	switch {
	case v != v:
		return ""
	case s.scale == scaleMASI:
		var names []string
		for _, b := range iaa.SetLabels(v) {
			names = append(names, s.setNames[b])
		}
		if len(names) == 0 {
			return "none"
		}
		return strings.Join(names, "+")
	case s.values != nil && int(v) >= 0 && int(v) < len(s.values):
		return s.values[int(v)]
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func (s *spec) iaaLevel() iaa.Level {
	switch s.scale {
	case scaleOrdinal:
		return iaa.Ordinal
	case scaleInterval:
		return iaa.Interval
	case scaleMASI:
		return iaa.MASI
	}
	return iaa.Nominal
}

func (s *spec) weights() iaa.Weighting {
	if s.scale == scaleOrdinal || s.scale == scaleInterval {
		return iaa.Quadratic
	}
	return iaa.Unweighted
}

// unitKey names a unit: a sentence or summary id, or a key fact with the
// sentence or summary it is aligned to.
type unitKey struct{ a, b int64 }

// ratings is one dimension's ratings matrix with the units' keys and, when
// the dimension has gold, the gold value of each unit (NaN for none).
type ratings struct {
	spec *spec
	keys []unitKey
	r    *iaa.Ratings
	gold []float64
}

// collector gathers the ratings of one dimension.
type collector struct {
	spec    *spec
	index   map[unitKey]int
	keys    []unitKey
	triples []iaa.Triple
	gold    func(unitKey) float64 // nil when the dimension has no gold
}

func (c *collector) add(k unitKey, coder int, v float64) {
	if v != v {
		return
	}
	u, ok := c.index[k]
	if !ok {
		u = len(c.keys)
		c.index[k] = u
		c.keys = append(c.keys, k)
	}
	c.triples = append(c.triples, iaa.Triple{Unit: u, Coder: coder, Value: v})
}

func (c *collector) build(coders int) ratings {
	r := iaa.NewRatings(len(c.keys), coders)
	for _, t := range c.triples {
		r.Set(t.Unit, t.Coder, t.Value) // a later label of the same cell wins
	}
	out := ratings{spec: c.spec, keys: c.keys, r: r}
	if c.gold != nil {
		out.gold = make([]float64, len(c.keys))
		for i, k := range c.keys {
			out.gold[i] = c.gold(k)
		}
	}
	return out
}

// label is what the value functions read from an annotator's label or from
// gold.
type label struct {
	Label         string
	ErrorTypes    []string
	Ambiguous     *bool
	AmbiguityType string
}

var nan = math.NaN()

var faithCodes = map[string]float64{tasks.LabelFaithful: 0, tasks.LabelUnfaithful: 1, tasks.LabelBorderline: 2}

// sentenceValue gives a sentence label's value on one dimension, NaN for
// none.
type sentenceValue func(l *label) float64

// summaryValue folds the labels of a summary's sentences (nil where a
// sentence has none) into the summary's value, NaN for none.
type summaryValue func(ls []*label) float64

func faithValue(l *label) float64 {
	if v, ok := faithCodes[l.Label]; ok {
		return v
	}
	return nan
}

// errorSet is the set of error types of a label; types count only on an
// unfaithful or borderline label, and the set is undefined without one.
func errorSet(l *label, codes map[string]int) (float64, bool) {
	switch l.Label {
	case "":
		return 0, false
	case tasks.LabelFaithful:
		return 0, true
	}
	var bits []int
	for _, t := range l.ErrorTypes {
		if i, ok := codes[t]; ok {
			bits = append(bits, i)
		}
	}
	return iaa.SetValue(bits...), true
}

func ambiguityValue(l *label) float64 {
	switch {
	case l.Ambiguous == nil:
		return nan
	case *l.Ambiguous:
		return 1
	}
	return 0
}

// summaryFaith: unfaithful if any sentence is; otherwise, with every
// sentence labelled, borderline if any is and faithful if all are.
func summaryFaith(ls []*label) float64 {
	all, border := true, false
	for _, l := range ls {
		switch {
		case l == nil || l.Label == "":
			all = false
		case l.Label == tasks.LabelUnfaithful:
			return 1
		case l.Label == tasks.LabelBorderline:
			border = true
		}
	}
	switch {
	case !all:
		return nan
	case border:
		return 2
	}
	return 0
}

// anyOf folds a yes/no sentence value: yes if any sentence says yes, no if
// every sentence says no, none otherwise.
func anyOf(f sentenceValue) summaryValue {
	return func(ls []*label) float64 {
		all := true
		for _, l := range ls {
			v := nan
			if l != nil {
				v = f(l)
			}
			switch {
			case v == 1:
				return 1
			case v != v:
				all = false
			}
		}
		if !all {
			return nan
		}
		return 0
	}
}

// unionOf folds error-type sets: the union, once every sentence has one.
func unionOf(codes map[string]int) summaryValue {
	return func(ls []*label) float64 {
		var u uint64
		for _, l := range ls {
			if l == nil {
				return nan
			}
			v, ok := errorSet(l, codes)
			if !ok {
				return nan
			}
			u |= uint64(v)
		}
		return float64(u)
	}
}

// labelDim is a dimension read from sentence labels: its value on a
// sentence and on a summary (nil when it has no summary level).
type labelDim struct {
	name, title string
	values      []string
	setNames    []string
	scale       string
	positive    float64
	sentence    sentenceValue
	summary     summaryValue
}

// labelDims lists the dimensions of the project's sentence labels.
func labelDims(set tasks.Settings) []labelDim {
	var out []labelDim
	yesNo := []string{"no", "yes"}
	if set.Faithfulness {
		out = append(out, labelDim{name: "faithfulness", title: "Faithfulness", values: []string{"faithful", "unfaithful", "borderline"},
			scale: scaleNominal, positive: 1, sentence: faithValue, summary: summaryFaith})
	}
	if set.ErrorTypes {
		tax := set.ErrorTaxonomy()
		if len(tax) > 53 { // sets are bit masks of at most 53 labels
			tax = tax[:53]
		}
		codes := map[string]int{}
		var names []string
		for i, t := range tax {
			codes[t.Code] = i
			names = append(names, t.Code)
		}
		out = append(out, labelDim{name: "error_types", title: "Error types (set)", setNames: names, scale: scaleMASI, positive: -1,
			sentence: func(l *label) float64 {
				if v, ok := errorSet(l, codes); ok {
					return v
				}
				return nan
			},
			summary: unionOf(codes)})
		for i, t := range tax {
			bit := uint64(1) << i
			one := func(l *label) float64 {
				v, ok := errorSet(l, codes)
				switch {
				case !ok:
					return nan
				case uint64(v)&bit != 0:
					return 1
				}
				return 0
			}
			out = append(out, labelDim{name: "error_type:" + t.Code, title: "Error type: " + t.Name, values: yesNo,
				scale: scaleNominal, positive: 1, sentence: one, summary: anyOf(one)})
		}
	}
	if set.Ambiguity {
		out = append(out, labelDim{name: "ambiguity", title: "Ambiguity flag", values: yesNo, scale: scaleNominal, positive: 1,
			sentence: ambiguityValue, summary: anyOf(ambiguityValue)})
		var names []string
		codes := map[string]float64{}
		for i, t := range tasks.AmbiguityTypes {
			names = append(names, t.Code)
			codes[t.Code] = float64(i)
		}
		out = append(out, labelDim{name: "ambiguity_type", title: "Ambiguity type (when flagged)", values: names, scale: scaleNominal, positive: -1,
			sentence: func(l *label) float64 {
				if l.Ambiguous == nil || !*l.Ambiguous {
					return nan
				}
				if v, ok := codes[l.AmbiguityType]; ok {
					return v
				}
				return nan
			}})
	}
	return out
}

func (d *labelDim) spec(level string) *spec {
	return &spec{name: d.name, title: d.title, level: level, scale: d.scale, values: d.values, setNames: d.setNames, positive: d.positive}
}

// topicCategories are the values of the topic category.
var topicCategories = []string{"main", "marginal"}

// extract builds the ratings matrix of every dimension for the assignments
// of one scope.
func (x *index) extract(sc *scope) []ratings {
	var out []ratings
	dims := labelDims(x.settings)
	// Sentence level.
	for i := range dims {
		d := &dims[i]
		c := x.newCollector(d.spec(LevelSentence))
		c.gold = func(k unitKey) float64 {
			if g := x.goldLabel(k.a); g != nil {
				return d.sentence(g)
			}
			return nan
		}
		for _, a := range sc.assignments {
			coder := sc.coderOf[a.Username]
			for _, l := range x.labels[a.ID] {
				c.add(unitKey{l.SentenceID, 0}, coder, d.sentence(toLabel(l)))
			}
		}
		out = append(out, c.build(len(sc.coders)))
	}
	if x.settings.KeyFacts {
		c := x.newCollector(&spec{name: "key_facts", title: "Key-fact alignment", level: LevelSentence, scale: scaleNominal, values: []string{"absent", "present"}, positive: 1})
		for _, a := range sc.assignments {
			if a.Status != tasks.StatusSubmitted {
				continue
			}
			coder := sc.coderOf[a.Username]
			for _, kf := range x.data.SummaryKeyFacts[a.SummaryID] {
				for _, sid := range x.summarySentences[a.SummaryID] {
					c.add(unitKey{kf, sid}, coder, boolValue(x.links[a.ID][[2]int64{kf, sid}]))
				}
			}
		}
		out = append(out, c.build(len(sc.coders)))
	}
	// Summary level.
	for i := range dims {
		d := &dims[i]
		if d.summary == nil {
			continue
		}
		c := x.newCollector(d.spec(LevelSummary))
		c.gold = func(k unitKey) float64 {
			if d.name == "faithfulness" {
				if g, ok := x.data.GoldSummaries[k.a]; ok {
					return faithValue(&label{Label: g})
				}
			}
			sents := x.summarySentences[k.a]
			ls := make([]*label, len(sents))
			for j, sid := range sents {
				ls[j] = x.goldLabel(sid)
			}
			return d.summary(ls)
		}
		for _, a := range sc.assignments {
			sents := x.summarySentences[a.SummaryID]
			ls := make([]*label, len(sents))
			byID := x.labelOf[a.ID]
			for j, sid := range sents {
				if l, ok := byID[sid]; ok {
					ls[j] = toLabel(l)
				}
			}
			c.add(unitKey{a.SummaryID, 0}, sc.coderOf[a.Username], d.summary(ls))
		}
		out = append(out, c.build(len(sc.coders)))
	}
	if x.settings.KeyFacts {
		c := x.newCollector(&spec{name: "key_facts", title: "Key-fact alignment", level: LevelSummary, scale: scaleNominal, values: []string{"absent", "present"}, positive: 1})
		for _, a := range sc.assignments {
			if a.Status != tasks.StatusSubmitted {
				continue
			}
			linked := map[int64]bool{}
			for k := range x.links[a.ID] {
				linked[k[0]] = true
			}
			for _, kf := range x.data.SummaryKeyFacts[a.SummaryID] {
				c.add(unitKey{a.SummaryID, kf}, sc.coderOf[a.Username], boolValue(linked[kf]))
			}
		}
		out = append(out, c.build(len(sc.coders)))
	}
	if x.settings.Relevance {
		c := x.newCollector(&spec{name: "relevance", title: "Relevance (1–5)", level: LevelSummary, scale: scaleOrdinal, positive: -1})
		for _, a := range sc.assignments {
			if l, ok := x.summaryLabels[a.ID]; ok && l.Relevance != nil {
				c.add(unitKey{a.SummaryID, 0}, sc.coderOf[a.Username], float64(*l.Relevance))
			}
		}
		out = append(out, c.build(len(sc.coders)))
	}
	if x.settings.TopicCategory {
		c := x.newCollector(&spec{name: "topic_category", title: "Topic category", level: LevelSummary, scale: scaleNominal, values: topicCategories, positive: -1})
		for _, a := range sc.assignments {
			if l, ok := x.summaryLabels[a.ID]; ok {
				if i := slices.Index(topicCategories, l.TopicCategory); i >= 0 {
					c.add(unitKey{a.SummaryID, 0}, sc.coderOf[a.Username], float64(i))
				}
			}
		}
		out = append(out, c.build(len(sc.coders)))
	}
	return append(out, x.scaleRatings(sc)...)
}

func (x *index) newCollector(s *spec) *collector {
	return &collector{spec: s, index: map[unitKey]int{}}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func toLabel(l tasks.ReportLabel) *label {
	return &label{Label: l.Label, ErrorTypes: l.ErrorTypes, Ambiguous: l.Ambiguous, AmbiguityType: l.AmbiguityType}
}
