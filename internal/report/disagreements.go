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
	// A sentence's labelled votes are read from the scope's sentence
	// order, which the sentence dimensions share, and put back in scope
	// order by part; sentences the data does not hold are grouped apart.
	// On the 1.5M-label project this holds 6 MB (partOf) where chaining
	// the votes of every sentence held 32 MB beside the dimensions.
	so := x.sentenceOrder(sc)
	partOf := make([]int32, len(x.views))
	strays := map[int64][]vote{}
	var strayIDs []int64 // in the order of their first vote
	for pi, p := range sc.parts {
		for i := p.lo; i < p.hi; i++ {
			partOf[i] = int32(pi)
			if v := &x.views[i]; v.pos < 0 && !v.empty {
				sid := x.sentenceOf(i, v)
				if _, ok := strays[sid]; !ok {
					strayIDs = append(strayIDs, sid)
				}
				strays[sid] = append(strays[sid], vote{int32(pi), i})
			}
		}
	}
	var buf []vote
	// votesOf returns the labelled votes of a sentence (by position p ≥ 0,
	// or −1−k for strayIDs[k]) in scope order, valid until the next call.
	votesOf := func(p int) []vote {
		if p < 0 {
			return strays[strayIDs[-1-p]]
		}
		buf = buf[:0]
		for _, i := range so.order[so.start[p]:so.start[p+1]] {
			if !x.views[i].empty {
				buf = append(buf, vote{partOf[i], i})
			}
		}
		for a := 1; a < len(buf); a++ {
			for b := a; b > 0 && buf[b].part < buf[b-1].part; b-- {
				buf[b], buf[b-1] = buf[b-1], buf[b]
			}
		}
		return buf
	}
	type scored struct {
		sentence                          int // as votesOf takes it
		sid                               int64
		split, errorDistance, ambiguities float64
		flags                             []Flag
	}
	// Every disagreement is counted; the listed ones are chosen as they
	// come (see topN) rather than by sorting all of them.
	top := newTopN(MaxDisagreements, func(a, b scored) int {
		return cmp.Or(cmp.Compare(min(len(b.flags), 1), min(len(a.flags), 1)), cmp.Compare(b.split, a.split), cmp.Compare(b.errorDistance, a.errorDistance),
			cmp.Compare(b.ambiguities, a.ambiguities), cmp.Compare(a.sid, b.sid))
	})
	total := 0
	flagsOf := x.flagsIn(sc)
	var faith, amb, sets []float64
	score := func(sentence int, sid int64) {
		vs := votesOf(sentence)
		if len(vs) == 0 {
			return
		}
		flags := flagsOf(sid)
		if len(vs) < 2 && len(flags) == 0 {
			return
		}
		faith, amb, sets = faith[:0], amb[:0], sets[:0]
		for _, v := range vs {
			l := &x.views[v.label]
			faith = append(faith, faithValue(l))
			amb = append(amb, ambiguityValue(l))
			if s, ok := errorSet(l); ok {
				sets = append(sets, s)
			}
		}
		f := scored{sentence: sentence, sid: sid,
			split:         pairSplit(faith, func(a, b float64) float64 { return b2f(a != b) }),
			ambiguities:   pairSplit(amb, func(a, b float64) float64 { return b2f(a != b) }),
			errorDistance: pairSplit(sets, iaa.MASIDistance),
			flags:         flags,
		}
		if f.split == 0 && f.errorDistance == 0 && f.ambiguities == 0 && len(flags) == 0 {
			return
		}
		total++
		top.offer(f)
	}
	for p := range x.data.Sentences {
		if so.start[p] < so.start[p+1] {
			score(p, x.data.Sentences[p].ID)
		}
	}
	for k, sid := range strayIDs {
		score(-1-k, sid)
	}
	listed := top.sorted()
	// Only the sentences listed are read with their text.
	var details map[int64]domain.ReportSentenceDetail
	if x.data.Details != nil && len(listed) > 0 {
		ids := make([]int64, len(listed))
		for i, f := range listed {
			ids[i] = f.sid
		}
		var err error
		if details, err = x.data.Details(ids); err != nil {
			return nil, 0, err
		}
	}
	out := make([]Disagreement, 0, len(listed))
	for _, f := range listed {
		vs := votesOf(f.sentence)
		sid := f.sid
		d := Disagreement{SentenceID: sid, Assignment: sc.assignment(int(vs[0].part)).ID, Votes: []Vote{}, ErrorTypes: []Vote{},
			Split: f.split, ErrorDistance: f.errorDistance, AmbiguitySplit: f.ambiguities, Flags: f.flags}
		for code, name := range faithSpec.values {
			var who []string
			for _, v := range vs {
				if int(x.views[v.label].faith) == code {
					who = append(who, sc.assignment(int(v.part)).Username)
				}
			}
			if len(who) > 0 {
				d.Votes = append(d.Votes, Vote{Value: name, Annotators: who})
			}
		}
		for _, t := range x.settings.ErrorTaxonomy() {
			var who []string
			for _, v := range vs {
				l := &x.views[v.label]
				if !l.empty && l.faith != 0 && slices.Contains(x.data.TypeLists[l.types], t.Code) {
					who = append(who, sc.assignment(int(v.part)).Username)
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

// vote is a labelled vote on a sentence: the scope's part (assignment) it
// belongs to and the label's place in the data's labels.
type vote struct{ part, label int32 }

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
