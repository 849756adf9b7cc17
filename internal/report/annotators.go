package report

import (
	"cmp"
	"slices"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
)

// maxPatterns bounds each annotator's list of disagreement patterns.
const maxPatterns = 5

// newAnnotators starts the per-annotator section: each coder with the
// number of sentences they labelled in scope.
func newAnnotators(x *index, sc *scope) []Annotator {
	out := make([]Annotator, len(sc.coders))
	for c, name := range sc.coders {
		out[c] = Annotator{Name: name, Dimensions: []AnnotatorDimension{}, Disagree: []DisagreementPattern{}}
	}
	secs, timed := make([]int, len(sc.coders)), make([]int, len(sc.coders))
	for pi, p := range sc.parts {
		views := x.partOf(p)
		n := 0
		for i := range views {
			if !views[i].empty {
				n++
			}
		}
		out[p.coder].Labels += n
		if s := sc.assignment(pi).ActiveSeconds; s > 0 && n > 0 {
			secs[p.coder] += s
			timed[p.coder] += n
		}
	}
	for c := range out {
		if timed[c] > 0 {
			v := float64(secs[c]) / float64(timed[c])
			out[c].SecondsPerSentence = &v
		}
	}
	return out
}

// finishAnnotators keeps each coder's strongest disagreement patterns.
func finishAnnotators(out []Annotator) {
	for c := range out {
		slices.SortStableFunc(out[c].Disagree, func(a, b DisagreementPattern) int { return cmp.Compare(b.Count, a.Count) })
		out[c].Disagree = out[c].Disagree[:min(len(out[c].Disagree), maxPatterns)]
	}
}

// coderTally is what againstRest gathers about one coder.
type coderTally struct {
	// shares holds, per unit shared with others, the share of the others
	// agreeing, for sets of labels (MASI); for other values, whose shares
	// are a/(m−1) for a of the m−1 others agreeing, agreed counts the
	// units by (m−1, a) instead (see shareIndex).
	shares   []float64
	agreed   []int
	vsMajor  []float64        // theirs × plurality of the others, codes² (not for sets)
	plural   int              // units where the others had a single plurality value
	patterns map[[2]int32]int // (theirs, plurality) → units, where they differ
	// independent, leaveOneOut and unscored count the units by the
	// reference the coder was scored against (see againstRest).
	independent, leaveOneOut, unscored int
}

// shareIndex is where agreed counts the units where a of the d others
// agreed: the pairs (d, a) in order, d from 1 and a from 0 to d.
func shareIndex(d, a int) int { return d*(d-1)/2 + d - 1 + a }

// agree counts n units where a of the d others agreed with the coder.
func (t *coderTally) agree(d, a, n int) {
	i := shareIndex(d, a)
	if i >= len(t.agreed) {
		t.agreed = append(t.agreed, make([]int, i+1-len(t.agreed))...)
	}
	t.agreed[i] += n
}

// majority counts n units where the coder gave x and the others' single
// plurality value was best (see plurality), over k values.
func (t *coderTally) majority(x, best int32, k, n int) {
	if t.vsMajor == nil {
		t.vsMajor = make([]float64, k*k)
		t.patterns = map[[2]int32]int{}
	}
	t.vsMajor[int(x)*k+int(best)] += float64(n)
	t.plural += n
	if best != x {
		t.patterns[[2]int32{x, best}] += n
	}
}

// againstRest compares every coder with the other coders of each unit and
// with gold, in one pass over the units: each rating is compared with the
// value counts of its unit, so the cost grows with the ratings (times the
// values in a unit), not with the coders squared. Where units have at
// most three ratings the pass tallies them (see restTallied).
func againstRest(rt ratings) ([]AnnotatorDimension, [][]DisagreementPattern) {
	s := rt.spec
	c := rt.c
	masi := s.scale == scaleMASI
	tallies := make([]coderTally, c.Coders)
	if masi {
		perCoder := make([]int, c.Coders)
		for _, cd := range c.Coder {
			perCoder[cd]++
		}
		for j, n := range perCoder {
			tallies[j].shares = make([]float64, 0, n)
		}
	}
	var gc goldCodes
	var vsGold *goldCounts
	if rt.gold != nil {
		gc = newGoldCodes(rt)
		vsGold = newGoldCounts(c.Coders, len(gc.values))
	}
	if masi || !restByTally || !restTallied(rt, gc, vsGold, tallies) {
		restByUnit(rt, gc, vsGold, tallies)
	}
	var without []iaa.Without
	if c.Coders >= 3 {
		without = iaa.AlphaWithout(c, s.iaaLevel())
	}
	ads := make([]AnnotatorDimension, c.Coders)
	pats := make([][]DisagreementPattern, c.Coders)
	for j := range tallies {
		t := &tallies[j]
		ad := AnnotatorDimension{Dimension: s.name, Level: s.level}
		const none = "no unit was rated by this annotator and another"
		if masi {
			ad.Agreement = meanStatistic(t.shares, none)
		} else {
			ad.Agreement = sharesStatistic(t.agreed, none)
		}
		switch {
		case masi:
			ad.KappaMajority = agreement.Statistic{Undefined: "sets of labels have no plurality value"}
		case t.plural == 0:
			ad.KappaMajority = agreement.Statistic{Undefined: "the others never had a single plurality value"}
		default:
			ad.KappaMajority = kappaStatistic(usedTable(t.vsMajor, c.Values, s.weights(), s.span))
		}
		switch {
		case without == nil:
			ad.AlphaWithout = agreement.Statistic{Undefined: "needs at least two other annotators"}
		case without[j].Err != nil:
			ad.AlphaWithout = undefined(without[j].Err)
		default:
			ad.AlphaWithout = agreement.Statistic{Value: ptr(without[j].Alpha)}
		}
		if rt.gold != nil {
			ad.Gold = goldAgreement(s, vsGold.confusion(j, gc.values))
			ad.Gold.Independent, ad.Gold.LeaveOneOut, ad.Gold.Unscored = t.independent, t.leaveOneOut, t.unscored
		}
		ads[j] = ad
		for p, n := range t.patterns {
			pats[j] = append(pats[j], DisagreementPattern{Dimension: s.name, Level: s.level,
				Theirs: s.valueName(c.Values[p[0]]), Others: s.valueName(c.Values[p[1]]), Count: n, Of: t.plural})
		}
		slices.SortFunc(pats[j], func(a, b DisagreementPattern) int {
			return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Theirs, b.Theirs), cmp.Compare(a.Others, b.Others))
		})
	}
	return ads, pats
}

// strictMajority returns the value that more than half of the ratings
// counted in cnt give, the rating being left out already taken off; ok is
// false when fewer than two ratings remain or none has more than half.
func strictMajority(codes []int32, cnt []int) (int32, bool) {
	others := len(codes) - 1
	if others < 2 {
		return 0, false
	}
	for _, y := range codes {
		if 2*cnt[y] > others {
			return y, true
		}
	}
	return 0, false
}

// usedTable computes Cohen's κ from a k × k table (k the number of
// values, codes by position) restricted to the categories that occur in
// it: the categories two columns of values would have on their own. The
// weights are over those values on the scale's span (see
// iaa.Weighting.ValueMatrix).
func usedTable(flat []float64, values []float64, w iaa.Weighting, span float64) (iaa.Kappa, error) {
	k := len(values)
	var used []int
	for i := range k {
		any := false
		for j := range k {
			if flat[i*k+j] > 0 || flat[j*k+i] > 0 {
				any = true
				break
			}
		}
		if any {
			used = append(used, i)
		}
	}
	table := make([][]float64, len(used))
	usedValues := make([]float64, len(used))
	for a, i := range used {
		usedValues[a] = values[i]
		table[a] = make([]float64, len(used))
		for b, j := range used {
			table[a][b] = flat[i*k+j]
		}
	}
	return iaa.CohenKappaTable(table, w.ValueMatrix(usedValues, span))
}

// goldAgreement reports labels against reference values from their
// confusion matrix (references by row, labels by column).
func goldAgreement(s *spec, conf iaa.Confusion) *GoldAgreement {
	g := &GoldAgreement{N: conf.N, Confusion: Confusion{Values: []string{}, Counts: [][]int{}}}
	agree := 0
	for i := range conf.Counts {
		agree += conf.Counts[i][i]
	}
	g.Accuracy = rate(agree, conf.N, "no unit has both a label and gold")
	if conf.N == 0 {
		g.Kappa = agreement.Statistic{Undefined: "no unit has both a label and gold"}
		return g
	}
	table := make([][]float64, len(conf.Counts))
	for i, row := range conf.Counts {
		table[i] = make([]float64, len(row))
		for j, n := range row {
			table[i][j] = float64(n)
		}
	}
	g.Kappa = kappaStatistic(iaa.CohenKappaTable(table, s.weights().ValueMatrix(conf.Categories, s.span)))
	for _, v := range conf.Categories {
		g.Confusion.Values = append(g.Confusion.Values, s.valueName(v))
	}
	g.Confusion.Counts = conf.Counts
	if s.positive >= 0 && s.scale == scaleNominal {
		ba, err := iaa.BalancedAccuracy(conf)
		st := agreement.Statistic{Value: ptr(ba), NUnits: ptr(conf.N)}
		if err != nil {
			// Units with both a label and gold exist (conf.N > 0): gold
			// has a single value on them.
			st = agreement.Statistic{Undefined: "gold has only one value on these units"}
		}
		finite(&st)
		g.BalancedAccuracy = &st
	}
	return g
}
