package report

import (
	"cmp"
	"slices"

	"annotate/internal/iaa"
)

// sentenceVotes is every label of one sentence in a scope.
type sentenceVotes struct {
	sid        int64
	assignment int64
	names      []string
	labels     []*label
}

// disagreements lists the sentences of a scope the annotators split on,
// worst first: by the share of disagreeing pairs of faithfulness labels,
// then by the mean MASI distance of their error types, then by the split
// of their ambiguity flags. It returns at most MaxDisagreements and the
// number of all.
func (x *index) disagreements(sc *scope) ([]Disagreement, int) {
	codes := map[string]int{}
	for i, t := range x.settings.ErrorTaxonomy() {
		if i < 53 {
			codes[t.Code] = i
		}
	}
	bySentence := map[int64]*sentenceVotes{}
	var order []int64
	for _, a := range sc.assignments {
		for i := range x.labels[a.ID] {
			l := &x.labels[a.ID][i]
			if l.Label == "" {
				continue
			}
			v := bySentence[l.SentenceID]
			if v == nil {
				v = &sentenceVotes{sid: l.SentenceID, assignment: a.ID}
				bySentence[l.SentenceID] = v
				order = append(order, l.SentenceID)
			}
			v.names = append(v.names, a.Username)
			v.labels = append(v.labels, toLabel(l))
		}
	}
	var out []Disagreement
	for _, sid := range order {
		v := bySentence[sid]
		if len(v.labels) < 2 {
			continue
		}
		d := Disagreement{SentenceID: sid, Assignment: v.assignment, Votes: []Vote{}, ErrorTypes: []Vote{}}
		var faith, amb []float64
		var sets []float64
		for _, l := range v.labels {
			faith = append(faith, faithValue(l))
			amb = append(amb, ambiguityValue(l))
			if s, ok := errorSet(l, codes); ok {
				sets = append(sets, s)
			}
		}
		d.Split = pairSplit(faith, func(a, b float64) float64 { return b2f(a != b) })
		d.AmbiguitySplit = pairSplit(amb, func(a, b float64) float64 { return b2f(a != b) })
		d.ErrorDistance = pairSplit(sets, iaa.MASIDistance)
		if d.Split == 0 && d.ErrorDistance == 0 && d.AmbiguitySplit == 0 {
			continue
		}
		for _, name := range faithSpec.values {
			var who []string
			for i, l := range v.labels {
				if l.Label == name {
					who = append(who, v.names[i])
				}
			}
			if len(who) > 0 {
				d.Votes = append(d.Votes, Vote{Value: name, Annotators: who})
			}
		}
		for _, t := range x.settings.ErrorTaxonomy() {
			var who []string
			for i, l := range v.labels {
				if l.Label != "" && l.Label != "faithful" && slices.Contains(l.ErrorTypes, t.Code) {
					who = append(who, v.names[i])
				}
			}
			if len(who) > 0 {
				d.ErrorTypes = append(d.ErrorTypes, Vote{Value: t.Code, Annotators: who})
			}
		}
		if s := x.sentences[sid]; s != nil {
			d.Document, d.Summary, d.Index, d.Text = s.DocumentExternal, s.SummaryExternal, s.Index, s.Text
			d.SummaryID = s.SummaryID
			if s.Gold != nil {
				d.Gold = s.Gold.Label
			}
		}
		d.Assistant = x.data.Assistant[sid]
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b Disagreement) int {
		return cmp.Or(cmp.Compare(b.Split, a.Split), cmp.Compare(b.ErrorDistance, a.ErrorDistance),
			cmp.Compare(b.AmbiguitySplit, a.AmbiguitySplit), cmp.Compare(a.SentenceID, b.SentenceID))
	})
	total := len(out)
	if out == nil {
		out = []Disagreement{}
	}
	return out[:min(total, MaxDisagreements)], total
}

// pairSplit is the mean distance over all pairs of the values present
// (NaN values skipped); 0 with fewer than two.
func pairSplit(vs []float64, dist func(a, b float64) float64) float64 {
	var sum float64
	n := 0
	for i, a := range vs {
		if a != a {
			continue
		}
		for _, b := range vs[i+1:] {
			if b != b {
				continue
			}
			sum += dist(a, b)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
