package report

import (
	"cmp"
	"slices"

	"annotate/internal/domain"
	"annotate/internal/iaa"
)

// disagreements lists the sentences of a scope the annotators split on,
// worst first: by the share of disagreeing pairs of faithfulness labels,
// then by the mean MASI distance of their error types, then by the split
// of their ambiguity flags. Sentences an annotator flagged for the leads
// come first, whether or not the annotators split on them. It returns at
// most MaxDisagreements and the number of all. Every sentence is scored, but only those listed are
// written out with their votes and text.
func (x *index) disagreements(sc *scope) ([]Disagreement, int, error) {
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
	// Groups by sentence position, and by id for the sentences the data
	// does not hold.
	atPos := make([]int32, len(x.data.Sentences))
	for i := range atPos {
		atPos[i] = -1
	}
	at := map[int64]int32{}
	votes, next = make([]vote, 0, sc.labels), make([]int32, 0, sc.labels)
	for pi := range sc.parts {
		labels, views := x.partOf(sc.parts[pi])
		for i := range views {
			if views[i].empty {
				continue
			}
			sid := labels[i].SentenceID
			v := int32(len(votes))
			votes = append(votes, vote{int32(pi), int32(i)})
			next = append(next, -1)
			var g int32
			var ok bool
			if pos := views[i].pos; pos >= 0 {
				g = atPos[pos]
				ok = g >= 0
				if !ok {
					atPos[pos] = int32(len(groups))
				}
			} else if g, ok = at[sid]; !ok {
				at[sid] = int32(len(groups))
			}
			if !ok {
				g = int32(len(groups))
				groups = append(groups, group{sid: sid, first: v, last: v})
			} else {
				next[groups[g].last] = v
				groups[g].last = v
			}
			groups[g].n++
		}
	}
	labelOf := func(v vote) *domain.ReportLabel { return &x.data.Labels[sc.parts[v.part].lo+v.label] }
	viewOf := func(v vote) *label { return &x.views[sc.parts[v.part].lo+v.label] }
	type scored struct {
		group                             int32
		split, errorDistance, ambiguities float64
		flags                             []Flag
	}
	// Every disagreement is counted; the listed ones are chosen as they
	// come (see topN) rather than by sorting all of them.
	top := newTopN(MaxDisagreements, func(a, b scored) int {
		return cmp.Or(cmp.Compare(min(len(b.flags), 1), min(len(a.flags), 1)), cmp.Compare(b.split, a.split), cmp.Compare(b.errorDistance, a.errorDistance),
			cmp.Compare(b.ambiguities, a.ambiguities), cmp.Compare(groups[a.group].sid, groups[b.group].sid))
	})
	total := 0
	flagsOf := x.flagsIn(sc)
	var faith, amb, sets []float64
	for gi, g := range groups {
		flags := flagsOf(g.sid)
		if g.n < 2 && len(flags) == 0 {
			continue
		}
		faith, amb, sets = faith[:0], amb[:0], sets[:0]
		for v := g.first; v >= 0; v = next[v] {
			l := viewOf(votes[v])
			faith = append(faith, faithValue(l))
			amb = append(amb, ambiguityValue(l))
			if s, ok := errorSet(l); ok {
				sets = append(sets, s)
			}
		}
		f := scored{group: int32(gi),
			split:         pairSplit(faith, func(a, b float64) float64 { return b2f(a != b) }),
			ambiguities:   pairSplit(amb, func(a, b float64) float64 { return b2f(a != b) }),
			errorDistance: pairSplit(sets, iaa.MASIDistance),
			flags:         flags,
		}
		if f.split == 0 && f.errorDistance == 0 && f.ambiguities == 0 && len(flags) == 0 {
			continue
		}
		total++
		top.offer(f)
	}
	listed := top.sorted()
	// Only the sentences listed are read with their text.
	var details map[int64]domain.ReportSentenceDetail
	if x.data.Details != nil && len(listed) > 0 {
		ids := make([]int64, len(listed))
		for i, f := range listed {
			ids[i] = groups[f.group].sid
		}
		var err error
		if details, err = x.data.Details(ids); err != nil {
			return nil, 0, err
		}
	}
	out := make([]Disagreement, 0, len(listed))
	for _, f := range listed {
		g := groups[f.group]
		sid := g.sid
		d := Disagreement{SentenceID: sid, Assignment: sc.assignment(int(votes[g.first].part)).ID, Votes: []Vote{}, ErrorTypes: []Vote{},
			Split: f.split, ErrorDistance: f.errorDistance, AmbiguitySplit: f.ambiguities, Flags: f.flags}
		for code, name := range faithSpec.values {
			var who []string
			for v := g.first; v >= 0; v = next[v] {
				if int(viewOf(votes[v]).faith) == code {
					who = append(who, sc.assignment(int(votes[v].part)).Username)
				}
			}
			if len(who) > 0 {
				d.Votes = append(d.Votes, Vote{Value: name, Annotators: who})
			}
		}
		for _, t := range x.settings.ErrorTaxonomy() {
			var who []string
			for v := g.first; v >= 0; v = next[v] {
				l := viewOf(votes[v])
				if !l.empty && l.faith != 0 && slices.Contains(x.data.TypeLists[labelOf(votes[v]).ErrorTypes], t.Code) {
					who = append(who, sc.assignment(int(votes[v].part)).Username)
				}
			}
			if len(who) > 0 {
				d.ErrorTypes = append(d.ErrorTypes, Vote{Value: t.Code, Annotators: who})
			}
		}
		if p, ok := x.sentPos.of(sid); ok {
			s := &x.data.Sentences[p]
			d.Index, d.SummaryID = s.Index, s.SummaryID
			dt := details[sid]
			d.Document, d.Summary, d.Text = dt.DocumentExternal, dt.SummaryExternal, dt.Text
			if s.Gold != nil {
				d.Gold = s.Gold.Label
			}
		}
		d.Assistant = x.data.Assistant.Of(sid)
		out = append(out, d)
	}
	return out, total, nil
}

// flagsIn returns a function giving the flags on a sentence raised in
// the scope's assignments, in the order the data holds them; nil for none.
func (x *index) flagsIn(sc *scope) func(sid int64) []Flag {
	if len(x.data.Flags) == 0 {
		return func(int64) []Flag { return nil }
	}
	who := make(map[int64]string, len(sc.parts))
	for i := range sc.parts {
		a := sc.assignment(i)
		who[a.ID] = a.Username
	}
	return func(sid int64) []Flag {
		var out []Flag
		for _, f := range x.data.Flags[sid] {
			if name, ok := who[f.AssignmentID]; ok {
				out = append(out, Flag{Annotator: name, Note: f.Note})
			}
		}
		return out
	}
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
