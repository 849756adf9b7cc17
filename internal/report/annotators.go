package report

import (
	"cmp"
	"slices"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
)

// maxPatterns bounds each annotator's list of disagreement patterns.
const maxPatterns = 5

// annotators compares each coder with the rest of the group and with gold
// on every dimension.
func annotators(dims []ratings, sc *scope, x *index) []Annotator {
	out := make([]Annotator, len(sc.coders))
	for c, name := range sc.coders {
		out[c] = Annotator{Name: name, Dimensions: []AnnotatorDimension{}, Disagree: []DisagreementPattern{}}
	}
	for _, a := range sc.assignments {
		for _, l := range x.labels[a.ID] {
			if l.Label != "" {
				out[sc.coderOf[a.Username]].Labels++
			}
		}
	}
	for _, rt := range dims {
		for c := range sc.coders {
			ad, pats := againstRest(rt, c)
			if rt.gold != nil {
				ad.Gold = againstGold(rt, c)
			}
			out[c].Dimensions = append(out[c].Dimensions, ad)
			out[c].Disagree = append(out[c].Disagree, pats...)
		}
	}
	for c := range out {
		slices.SortStableFunc(out[c].Disagree, func(a, b DisagreementPattern) int { return cmp.Compare(b.Count, a.Count) })
		out[c].Disagree = out[c].Disagree[:min(len(out[c].Disagree), maxPatterns)]
	}
	return out
}

// againstRest compares coder c with the other coders of each unit.
func againstRest(rt ratings, c int) (AnnotatorDimension, []DisagreementPattern) {
	s := rt.spec
	ad := AnnotatorDimension{Dimension: s.name, Level: s.level}
	r := rt.r
	var shares, theirs, majority []float64
	patterns := map[[2]float64]int{}
	others := make([]float64, 0, r.Coders)
	for u := range r.Units {
		v := r.At(u, c)
		if v != v {
			continue
		}
		others = others[:0]
		for o, w := range r.Unit(u) {
			if o != c && w == w {
				others = append(others, w)
			}
		}
		if len(others) == 0 {
			continue
		}
		var agree float64
		for _, w := range others {
			switch {
			case s.scale == scaleMASI:
				agree += 1 - iaa.MASIDistance(v, w)
			case v == w:
				agree++
			}
		}
		shares = append(shares, agree/float64(len(others)))
		if s.scale == scaleMASI {
			continue
		}
		if m, ok := plurality(others); ok {
			theirs = append(theirs, v)
			majority = append(majority, m)
			if m != v {
				patterns[[2]float64{v, m}]++
			}
		}
	}
	ad.Agreement = meanStatistic(shares, "no unit was rated by this annotator and another")
	switch {
	case s.scale == scaleMASI:
		ad.KappaMajority = agreement.Statistic{Undefined: "sets of labels have no plurality value"}
	case len(theirs) == 0:
		ad.KappaMajority = agreement.Statistic{Undefined: "the others never had a single plurality value"}
	default:
		ad.KappaMajority = kappaStatistic(iaa.CohenKappa(iaa.FromColumns(theirs, majority), 0, 1, s.weights()))
	}
	ad.AlphaWithout = alphaWithout(rt, c)
	var pats []DisagreementPattern
	for k, n := range patterns {
		pats = append(pats, DisagreementPattern{Dimension: s.name, Level: s.level, Theirs: s.valueName(k[0]), Others: s.valueName(k[1]), Count: n, Of: len(theirs)})
	}
	slices.SortFunc(pats, func(a, b DisagreementPattern) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Theirs, b.Theirs), cmp.Compare(a.Others, b.Others))
	})
	return ad, pats
}

// plurality is the most frequent value, if exactly one value is most
// frequent.
func plurality(vs []float64) (float64, bool) {
	best, bestN, tie := 0.0, 0, false
	for i, v := range vs {
		n := 0
		for _, w := range vs[i:] {
			if w == v {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tie = v, n, false
		case n == bestN && v != best:
			tie = true
		}
	}
	return best, !tie
}

// alphaWithout is α of the matrix with coder c's column left out.
func alphaWithout(rt ratings, c int) agreement.Statistic {
	r := rt.r
	if r.Coders < 3 {
		return agreement.Statistic{Undefined: "needs at least two other annotators"}
	}
	rest := iaa.NewRatings(r.Units, r.Coders-1)
	for u := range r.Units {
		row := r.Unit(u)
		copy(rest.Unit(u), row[:c])
		copy(rest.Unit(u)[c:], row[c+1:])
	}
	return alphaStatistic(rest, rt.spec.iaaLevel(), bootstrap{})
}

// againstGold compares coder c with gold on the units that have both.
func againstGold(rt ratings, c int) *GoldAgreement {
	var ref, lab []float64
	for u := range rt.r.Units {
		v, g := rt.r.At(u, c), rt.gold[u]
		if v == v && g == g {
			ref = append(ref, g)
			lab = append(lab, v)
		}
	}
	return goldAgreement(rt.spec, ref, lab)
}

// goldAgreement compares labels with reference values, item by item.
func goldAgreement(s *spec, ref, lab []float64) *GoldAgreement {
	g := &GoldAgreement{N: len(ref), Confusion: Confusion{Values: []string{}, Counts: [][]int{}}}
	agree := 0
	for i := range ref {
		if ref[i] == lab[i] {
			agree++
		}
	}
	g.Accuracy = rate(agree, len(ref), "no unit has both a label and gold")
	if len(ref) == 0 {
		g.Kappa = agreement.Statistic{Undefined: "no unit has both a label and gold"}
		return g
	}
	g.Kappa = kappaStatistic(iaa.CohenKappa(iaa.FromColumns(ref, lab), 0, 1, s.weights()))
	conf := iaa.ConfusionMatrix(ref, lab)
	for _, v := range conf.Categories {
		g.Confusion.Values = append(g.Confusion.Values, s.valueName(v))
	}
	g.Confusion.Counts = conf.Counts
	if s.positive >= 0 && s.scale == scaleNominal {
		b, err := iaa.BinaryRates(conf, s.positive)
		st := agreement.Statistic{Value: ptr(b.BalancedAccuracy), NUnits: ptr(conf.N)}
		if err != nil {
			st = undefined(err)
		}
		finite(&st)
		g.BalancedAccuracy = &st
	}
	return g
}
