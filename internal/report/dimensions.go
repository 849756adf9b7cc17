package report

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"annotate/internal/domain"
	"annotate/internal/iaa"
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
	// positive is the code of the dimension's positive class
	// (unfaithful, yes, present), −1 when it has none; balanced accuracy
	// is shown on the dimensions that have one.
	positive float64
	// span is the range of a numeric scale (its maximum less its
	// minimum), which weighted κ's weights are taken over; 0 when unknown
	// (the values' own range).
	span float64
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

// ratings is one dimension's ratings, sparse and coded (only the ratings
// given, 12 bytes each, whatever the number of annotators), with the
// units' keys and, when the dimension has gold, the gold value of each
// unit (NaN for none).
type ratings struct {
	spec *spec
	keys []unitKey
	c    *iaa.Coded
	gold []float64
	// derived marks units whose gold the annotators' own labels made; nil
	// when no unit's did.
	derived []bool
	// bufs, unless nil, are the arrays c and gold are built in (see
	// release).
	bufs *ratingBufs
}

// release gives the arrays the ratings are built in to the next
// dimension's; neither the ratings nor anything made of their arrays may
// be used afterwards.
func (r *ratings) release() {
	if r.bufs != nil {
		ratingBufPool.Put(r.bufs)
		r.bufs, r.c, r.gold = nil, nil, nil
	}
}

// collector gathers the ratings of one dimension. Units are found by key
// (add) or, for sentences and summaries, by their dense position (addAt),
// which needs no map.
type collector struct {
	spec  *spec
	index map[unitKey]int
	keys  []unitKey
	b     *iaa.CodedBuilder
	gold  func(u int, k unitKey) float64 // nil when the dimension has no gold
	// derived marks the units whose gold the annotators' labels made, by
	// position in the fixed keys; nil when none did or the dimension has
	// no gold.
	derived func() []bool
}

// addAt adds a rating of unit u of a collector made over fixed keys.
func (c *collector) addAt(u int, coder int, v float64) {
	if v == v && u >= 0 {
		c.b.Add(u, coder, v)
	}
}

func (c *collector) add(k unitKey, coder int, v float64) {
	if v != v {
		return
	}
	if c.index == nil {
		c.index = map[unitKey]int{}
	}
	u, ok := c.index[k]
	if !ok {
		u = len(c.keys)
		c.index[k] = u
		c.keys = append(c.keys, k)
	}
	c.b.Add(u, coder, v) // a later label of the same cell wins
}

func (c *collector) build() ratings {
	out := ratings{spec: c.spec, keys: c.keys, c: c.b.Build(len(c.keys))}
	if c.gold != nil {
		out.gold = make([]float64, len(c.keys))
		for i, k := range c.keys {
			out.gold[i] = c.gold(i, k)
		}
		if c.derived != nil {
			out.derived = c.derived()
		}
	}
	return out
}

// derivedUnits lists which of n units' gold is derived, or nil when none
// is.
func derivedUnits(n int, derived func(int) bool) []bool {
	var out []bool
	for i := range n {
		if derived(i) {
			if out == nil {
				out = make([]bool, n)
			}
			out[i] = true
		}
	}
	return out
}

// label is what the value functions read from an annotator's label or from
// gold, coded: 24 bytes without pointers, worked out once per label.
type label struct {
	mask    uint64 // the error types as a set (see typeMask)
	pos     int32  // an annotator's label: the sentence's position, −1 if unknown
	types   uint32 // an annotator's label: its error types, an index into the data's TypeLists
	faith   int8   // the faithfulness code (faithCodes), −1 for none
	empty   bool   // no label was given
	amb     int8   // the ambiguity flag: −1 unanswered, 0 no, 1 yes
	ambType int8   // the index of the ambiguity type in tasks.AmbiguityTypes, −1 for none
	derived bool   // gold made from the annotators' own labels (see tasks.ReportGold)
	// An annotator's label: the faithfulness code of the first label (−1
	// for none, −2 for one that is not a faithfulness label) and whether
	// the assistant was shown.
	first   int8
	visible bool
}

var nan = math.NaN()

var faithCodes = map[string]float64{domain.LabelFaithful: 0, domain.LabelUnfaithful: 1, domain.LabelBorderline: 2}

// faithCode is the faithfulness code of a label, −1 for none.
func faithCode(s string) int8 {
	if v, ok := faithCodes[s]; ok {
		return int8(v)
	}
	return -1
}

// ambiguityCode is the index of an ambiguity type, −1 for none.
func ambiguityCode(s string) int8 {
	for i, t := range domain.AmbiguityTypes {
		if t.Code == s {
			return int8(i)
		}
	}
	return -1
}

// stringCodes holds, for each string of the data's labels, its
// faithfulness and ambiguity-type codes.
type stringCodes struct{ faith, ambType []int8 }

func newStringCodes(strs []string) stringCodes {
	c := stringCodes{faith: make([]int8, len(strs)), ambType: make([]int8, len(strs))}
	for i, s := range strs {
		c.faith[i], c.ambType[i] = faithCode(s), ambiguityCode(s)
	}
	return c
}

// view codes an annotator's label; masks are the sets of the data's
// error-type lists.
func (c stringCodes) view(l *domain.ReportLabel, masks []uint64) label {
	v := label{faith: -1, ambType: -1, amb: -1, empty: l.Label == 0, mask: masks[l.ErrorTypes], types: l.ErrorTypes,
		first: -1, visible: l.AssistantVisible}
	if int(l.Label) < len(c.faith) {
		v.faith = c.faith[l.Label]
	}
	if l.FirstLabel != 0 {
		v.first = -2
		if int(l.FirstLabel) < len(c.faith) && c.faith[l.FirstLabel] >= 0 {
			v.first = c.faith[l.FirstLabel]
		}
	}
	if int(l.AmbiguityType) < len(c.ambType) {
		v.ambType = c.ambType[l.AmbiguityType]
	}
	switch l.Ambiguous {
	case domain.AmbiguousNo:
		v.amb = 0
	case domain.AmbiguousYes:
		v.amb = 1
	}
	return v
}

// goldView codes a gold label.
func goldView(g *domain.ReportGold, codes map[string]int) label {
	v := label{faith: faithCode(g.Label), empty: g.Label == "", mask: typeMask(g.ErrorTypes, codes), amb: -1, ambType: ambiguityCode(g.AmbiguityType), derived: g.Derived}
	if g.Ambiguous != nil {
		v.amb = int8(b2i(*g.Ambiguous))
	}
	return v
}

// sentenceValue gives a sentence label's value on one dimension, NaN for
// none.
type sentenceValue func(l *label) float64

// summaryValue folds the labels of a summary's sentences (nil where a
// sentence has none) into the summary's value, NaN for none.
type summaryValue func(ls []*label) float64

func faithValue(l *label) float64 {
	if l.faith < 0 {
		return nan
	}
	return float64(l.faith)
}

// errorSet is the set of error types of a label; types count only on an
// unfaithful or borderline label, and the set is undefined without one.
// An unfaithful label that names no type (imported, or a draft) says
// there is an error without saying which: its set is unknown, not the
// empty set of a faithful label, with which it would otherwise agree.
func errorSet(l *label) (float64, bool) {
	switch {
	case l.empty:
		return 0, false
	case l.faith == 0:
		return 0, true
	case l.faith == 1 && l.mask == 0:
		return 0, false
	}
	return float64(l.mask), true
}

// typeMask is the set of the error types among codes, as iaa.SetValue
// encodes it: bit i for the type coded i.
func typeMask(types []string, codes map[string]int) uint64 {
	var m uint64
	for _, t := range types {
		if i, ok := codes[t]; ok {
			m |= 1 << i
		}
	}
	return m
}

// errorCodes numbers the project's error types, at most 53 (sets are bit
// masks stored in a float64).
func errorCodes(set domain.Settings) map[string]int {
	codes := map[string]int{}
	for i, t := range set.ErrorTaxonomy() {
		if i < 53 {
			codes[t.Code] = i
		}
	}
	return codes
}

func ambiguityValue(l *label) float64 {
	if l.amb < 0 {
		return nan
	}
	return float64(l.amb)
}

// summaryFaith: unfaithful if any sentence is; otherwise, with every
// sentence labelled, borderline if any is and faithful if all are.
func summaryFaith(ls []*label) float64 {
	all, border := true, false
	for _, l := range ls {
		switch {
		case l == nil || l.empty:
			all = false
		case l.faith == 1:
			return 1
		case l.faith == 2:
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
func unionOf() summaryValue {
	return func(ls []*label) float64 {
		var u uint64
		for _, l := range ls {
			if l == nil {
				return nan
			}
			v, ok := errorSet(l)
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
func labelDims(set domain.Settings) []labelDim {
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
		var names []string
		for _, t := range tax {
			names = append(names, t.Code)
		}
		out = append(out, labelDim{name: "error_types", title: "Error types (set)", setNames: names, scale: scaleMASI, positive: -1,
			sentence: func(l *label) float64 {
				if v, ok := errorSet(l); ok {
					return v
				}
				return nan
			},
			summary: unionOf()})
		for i, t := range tax {
			bit := uint64(1) << i
			one := func(l *label) float64 {
				v, ok := errorSet(l)
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
		for _, t := range domain.AmbiguityTypes {
			names = append(names, t.Code)
		}
		out = append(out, labelDim{name: "ambiguity_type", title: "Ambiguity type (when flagged)", values: names, scale: scaleNominal, positive: -1,
			sentence: func(l *label) float64 {
				if l.amb != 1 || l.ambType < 0 {
					return nan
				}
				return float64(l.ambType)
			}})
	}
	return out
}

func (d *labelDim) spec(level string) *spec {
	return &spec{name: d.name, title: d.title, level: level, scale: d.scale, values: d.values, setNames: d.setNames, positive: d.positive}
}

// topicCategories are the values of the topic category.
var topicCategories = []string{"main", "marginal"}

// source is one dimension at one level: what it is and how its ratings
// are read from the labels of a scope. The report is a list of sources
// (see [index.sources]); a new kind of dimension is one more source.
type source struct {
	spec *spec
	// collect adds the ratings of the scope's assignments.
	collect func(sc *scope, c *collector)
	// gold gives the gold value of unit u with key k (NaN for none); nil
	// when the dimension has no gold.
	gold func(u int, k unitKey) float64
	// derived marks the units whose gold the annotators' labels made (see
	// againstRest), by position in keys: the same for every dimension of
	// a level, so made once (see index.derivedAt); nil when the dimension
	// has no gold.
	derived func() []bool
	// sentence, when set, gives the value of each sentence label, from
	// which the ratings are built in the scope's sentence order (see
	// [index.sentenceRatings]) rather than by collect.
	sentence sentenceValue
	// keys, when set, are the units in a fixed order (every sentence or
	// every summary of the data), found by position with addAt.
	keys func() []unitKey
	// build, when set, makes the ratings itself, without collect.
	build func(sc *scope) ratings
}

// ratings collects one source's ratings over a scope. Only one
// dimension's ratings are held at a time, whatever the number of
// dimensions.
func (x *index) ratings(src source, sc *scope) ratings {
	if src.sentence != nil {
		return x.sentenceRatings(src, sc)
	}
	if src.build != nil {
		return src.build(sc)
	}
	c := x.newCollector(src.spec, len(sc.coders))
	if src.keys != nil {
		c.keys = src.keys()
	}
	if src.spec.level == LevelSentence && src.keys != nil {
		c.b.Grow(sc.labels)
	} else {
		c.b.Grow(len(sc.which))
	}
	c.gold, c.derived = src.gold, src.derived
	src.collect(sc, c)
	return c.build()
}

var keyFactValues = []string{"absent", "present"}

// sources lists the project's dimensions in report order: every label
// dimension at sentence level, key facts per sentence, then the summary
// level.
func (x *index) sources() []source {
	var out []source
	dims := labelDims(x.settings)
	// Which units' gold the annotators made, by sentence and by summary
	// (a summary's when any of its sentences' is), made once for the
	// dimensions of each level, which run side by side.
	sentenceDerived := sync.OnceValue(func() []bool {
		return derivedUnits(len(x.sentenceKeys), func(u int) bool { return x.gold[u] != nil && x.gold[u].derived })
	})
	summaryDerived := sync.OnceValue(func() []bool {
		return derivedUnits(len(x.summaryKeys), func(u int) bool {
			first, n := int(x.summaryFirst[u]), int(x.summaryLen[u])
			for _, g := range x.gold[first : first+n] {
				if g != nil && g.derived {
					return true
				}
			}
			return false
		})
	})
	// Sentence level.
	for i := range dims {
		d := &dims[i]
		out = append(out, source{
			spec:     d.spec(LevelSentence),
			sentence: d.sentence,
			keys:     func() []unitKey { return x.sentenceKeys },
			gold: func(u int, _ unitKey) float64 {
				if g := x.gold[u]; g != nil {
					return d.sentence(g)
				}
				return nan
			},
			derived: sentenceDerived,
			collect: func(sc *scope, c *collector) {
				for _, p := range sc.parts {
					views := x.partOf(p)
					coder := int(p.coder)
					for i := range views {
						c.addAt(int(views[i].pos), coder, d.sentence(&views[i]))
					}
				}
			},
		})
	}
	if x.settings.KeyFacts {
		sp := &spec{name: "key_facts", title: "Key-fact alignment", level: LevelSentence, scale: scaleNominal, values: keyFactValues, positive: 1}
		out = append(out, source{spec: sp, build: func(sc *scope) ratings { return x.keyFactRatings(sp, sc) }})
	}
	// Summary level.
	for i := range dims {
		d := &dims[i]
		if d.summary == nil {
			continue
		}
		out = append(out, source{
			spec: d.spec(LevelSummary),
			keys: func() []unitKey { return x.summaryKeys },
			gold: func(u int, k unitKey) float64 {
				if d.name == "faithfulness" {
					if g, ok := x.data.GoldSummaries[k.a]; ok {
						return faithValue(&label{faith: faithCode(g)})
					}
				}
				first := int(x.summaryFirst[u])
				return d.summary(x.gold[first : first+int(x.summaryLen[u])])
			},
			derived: summaryDerived,
			collect: func(sc *scope, c *collector) {
				var ls []*label
				for _, p := range sc.parts {
					u := p.summary
					first, n := int(x.summaryFirst[u]), int(x.summaryLen[u])
					ls = slices.Grow(ls[:0], n)[:n]
					clear(ls)
					views := x.partOf(p)
					for i := range views {
						if j := int(views[i].pos) - first; j >= 0 && j < n {
							ls[j] = &views[i]
						}
					}
					c.addAt(int(u), int(p.coder), d.summary(ls))
				}
			},
		})
	}
	if x.settings.KeyFacts {
		out = append(out, source{
			spec: &spec{name: "key_facts", title: "Key-fact alignment", level: LevelSummary, scale: scaleNominal, values: keyFactValues, positive: 1},
			collect: func(sc *scope, c *collector) {
				base := x.summaryBlocks()
				for i := range sc.which {
					a := sc.assignment(i)
					u := sc.parts[i].summary
					kfs := x.keyFactsOf(u)
					if base[u] < 0 {
						base[u] = len(c.keys)
						for _, kf := range kfs {
							c.keys = append(c.keys, unitKey{a.SummaryID, kf})
						}
					}
					links := x.linksOf(sc, i)
					for j, kf := range kfs {
						linked := slices.ContainsFunc(links, func(l domain.ReportKeyFactLink) bool { return l.KeyFactID == kf })
						c.addAt(base[u]+j, int(sc.parts[i].coder), boolValue(linked))
					}
				}
			},
		})
	}
	if x.settings.Relevance {
		out = append(out, source{
			spec: &spec{name: "relevance", title: "Relevance (1–5)", level: LevelSummary, scale: scaleOrdinal, positive: -1,
				span: domain.RelevanceMax - domain.RelevanceMin},
			keys: func() []unitKey { return x.summaryKeys },
			collect: func(sc *scope, c *collector) {
				for i, p := range sc.parts {
					if l, ok := x.summaryLabelOf(sc, i); ok && l.Relevance != nil {
						c.addAt(int(p.summary), int(p.coder), float64(*l.Relevance))
					}
				}
			},
		})
	}
	if x.settings.TopicCategory {
		out = append(out, source{
			spec: &spec{name: "topic_category", title: "Topic category", level: LevelSummary, scale: scaleNominal, values: topicCategories, positive: -1},
			keys: func() []unitKey { return x.summaryKeys },
			collect: func(sc *scope, c *collector) {
				for i, p := range sc.parts {
					if l, ok := x.summaryLabelOf(sc, i); ok {
						if k := slices.Index(topicCategories, l.TopicCategory); k >= 0 {
							c.addAt(int(p.summary), int(p.coder), float64(k))
						}
					}
				}
			},
		})
	}
	return append(out, x.scaleSources()...)
}

// summaryBlocks returns, for each summary position, −1: where a
// dimension's units of that summary start, before they are numbered.
func (x *index) summaryBlocks() []int {
	base := make([]int, len(x.summaryIDs))
	for i := range base {
		base[i] = -1
	}
	return base
}

func (x *index) newCollector(s *spec, coders int) *collector {
	return &collector{spec: s, index: map[unitKey]int{}, b: iaa.NewCodedBuilder(coders)}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
