package report

import (
	"cmp"
	"slices"

	"annotate/internal/iaa"
	"annotate/internal/tasks"
)

// disagreements lists the sentences of a scope the annotators split on,
// worst first: by the share of disagreeing pairs of faithfulness labels,
// then by the mean MASI distance of their error types, then by the split
// of their ambiguity flags. It returns at most MaxDisagreements and the
// number of all. Every sentence is scored, but only those listed are
// written out with their votes and text.
func (x *index) disagreements(sc *scope) ([]Disagreement, int) {
	codes := map[string]int{}
	for i, t := range x.settings.ErrorTaxonomy() {
		if i < 53 {
			codes[t.Code] = i
		}
	}
	// The labelled votes of each sentence, in scope order: groups in order
	// of the sentence's first vote, each a chain through next.
	type vote struct{ part, label int32 }
	var votes []vote
	var next []int32
	type group struct {
		sid         int64
		first, last int32
		n           int
	}
	var groups []group
	at := map[int64]int32{}
	for pi := range sc.parts {
		ls := sc.parts[pi].labels
		for i := range ls {
			if ls[i].Label == "" {
				continue
			}
			sid := ls[i].SentenceID
			v := int32(len(votes))
			votes = append(votes, vote{int32(pi), int32(i)})
			next = append(next, -1)
			g, ok := at[sid]
			if !ok {
				g = int32(len(groups))
				at[sid] = g
				groups = append(groups, group{sid: sid, first: v, last: v})
			} else {
				next[groups[g].last] = v
				groups[g].last = v
			}
			groups[g].n++
		}
	}
	labelOf := func(v vote) *tasks.ReportLabel { return &sc.parts[v.part].labels[v.label] }
	type scored struct {
		group                             int32
		split, errorDistance, ambiguities float64
	}
	var found []scored
	var lbs []label
	var faith, amb, sets []float64
	for gi, g := range groups {
		if g.n < 2 {
			continue
		}
		lbs, faith, amb, sets = lbs[:0], faith[:0], amb[:0], sets[:0]
		for v := g.first; v >= 0; v = next[v] {
			lbs = append(lbs, label{})
			setLabel(&lbs[len(lbs)-1], labelOf(votes[v]))
		}
		for i := range lbs {
			l := &lbs[i]
			faith = append(faith, faithValue(l))
			amb = append(amb, ambiguityValue(l))
			if s, ok := errorSet(l, codes); ok {
				sets = append(sets, s)
			}
		}
		f := scored{group: int32(gi),
			split:         pairSplit(faith, func(a, b float64) float64 { return b2f(a != b) }),
			ambiguities:   pairSplit(amb, func(a, b float64) float64 { return b2f(a != b) }),
			errorDistance: pairSplit(sets, iaa.MASIDistance),
		}
		if f.split == 0 && f.errorDistance == 0 && f.ambiguities == 0 {
			continue
		}
		found = append(found, f)
	}
	slices.SortFunc(found, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.split, a.split), cmp.Compare(b.errorDistance, a.errorDistance),
			cmp.Compare(b.ambiguities, a.ambiguities), cmp.Compare(groups[a.group].sid, groups[b.group].sid))
	})
	total := len(found)
	out := make([]Disagreement, 0, min(total, MaxDisagreements))
	for _, f := range found[:min(total, MaxDisagreements)] {
		g := groups[f.group]
		sid := g.sid
		d := Disagreement{SentenceID: sid, Assignment: sc.assignments[votes[g.first].part].ID, Votes: []Vote{}, ErrorTypes: []Vote{},
			Split: f.split, ErrorDistance: f.errorDistance, AmbiguitySplit: f.ambiguities}
		for _, name := range faithSpec.values {
			var who []string
			for v := g.first; v >= 0; v = next[v] {
				if labelOf(votes[v]).Label == name {
					who = append(who, sc.assignments[votes[v].part].Username)
				}
			}
			if len(who) > 0 {
				d.Votes = append(d.Votes, Vote{Value: name, Annotators: who})
			}
		}
		for _, t := range x.settings.ErrorTaxonomy() {
			var who []string
			for v := g.first; v >= 0; v = next[v] {
				l := labelOf(votes[v])
				if l.Label != "" && l.Label != "faithful" && slices.Contains(l.ErrorTypes, t.Code) {
					who = append(who, sc.assignments[votes[v].part].Username)
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
	return out, total
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
