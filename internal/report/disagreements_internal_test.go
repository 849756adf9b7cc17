package report

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/iaa"
	"annotate/internal/reportseed"
	"annotate/internal/testkit"
)

// TestDisagreementsAgainstReference compares the disagreements of every
// scope with those worked out directly: each sentence's labelled votes
// gathered in scope order, scored, all of them sorted, the first
// MaxDisagreements listed. The data has summaries dealt again in a later
// round with labels of their own (so that a scope's assignments are not
// in the order of their labels), labels on sentences the data does not
// hold, empty labels and flags.
func TestDisagreementsAgainstReference(t *testing.T) {
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 40, Annotators: 5, Calibrate: 0.5, Seed: 11})
	d := seededData(t, store, p)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range d.Labels {
		if rng.IntN(9) == 0 {
			d.Labels[i].Label = 0
		}
	}
	// Dealt again, in round 99: every third assignment, relabelled at
	// random, with two labels on a sentence outside the data.
	n, nextID := len(d.Assignments), d.Assignments[len(d.Assignments)-1].ID+1
	byAssignment := map[int64][]domain.ReportLabel{}
	for _, l := range d.Labels {
		byAssignment[l.AssignmentID] = append(byAssignment[l.AssignmentID], l)
	}
	for i := 0; i < n; i += 3 {
		a := d.Assignments[i]
		old := a.ID
		a.ID, a.RoundID = nextID, 99
		nextID++
		d.Assignments = append(d.Assignments, a)
		for _, l := range byAssignment[old] {
			l.AssignmentID = a.ID
			if rng.IntN(2) == 0 {
				l.Label = d.Labels[rng.IntN(len(d.Labels))].Label
			}
			d.Labels = append(d.Labels, l)
		}
		d.Labels = append(d.Labels, domain.ReportLabel{AssignmentID: a.ID, SentenceID: 1e9 + a.SummaryID%4, Label: d.Labels[rng.IntN(len(d.Labels))].Label})
	}
	d.Flags = map[int64][]domain.ReportFlag{}
	for i := range 30 {
		l := d.Labels[rng.IntN(len(d.Labels))]
		d.Flags[l.SentenceID] = append(d.Flags[l.SentenceID], domain.ReportFlag{AssignmentID: l.AssignmentID, Note: fmt.Sprint("flag ", i)})
	}
	x := newIndex(d, p.Settings)
	rounds := []int64{0, 99}
	for _, r := range d.Rounds {
		rounds = append(rounds, r.ID)
	}
	listedSome := false
	for _, round := range rounds {
		for _, drafts := range []bool{false, true} {
			sc := x.scope(round, drafts)
			got, total, err := x.disagreements(sc)
			if err != nil {
				t.Fatal(err)
			}
			want := disagreementsReference(x, sc)
			if total != len(want) {
				t.Fatalf("round %d, drafts %v: %d disagreements, want %d", round, drafts, total, len(want))
			}
			want = want[:min(len(want), MaxDisagreements)]
			if len(got) != len(want) {
				t.Fatalf("round %d, drafts %v: %d listed, want %d", round, drafts, len(got), len(want))
			}
			for i := range want {
				w := &want[i]
				if dt, ok := details(t, x, w.SentenceID); ok {
					w.Document, w.Summary, w.Text = dt.DocumentExternal, dt.SummaryExternal, dt.Text
				}
				if !reflect.DeepEqual(got[i], *w) {
					t.Fatalf("round %d, drafts %v: disagreement %d is\n%+v\nwant\n%+v", round, drafts, i, got[i], *w)
				}
			}
			listedSome = listedSome || total > MaxDisagreements
		}
	}
	if !listedSome {
		t.Fatal("no scope has more disagreements than are listed: the fixture does not exercise the choice")
	}
}

// disagreementsReference lists every disagreement of a scope, worst
// first, gathering each sentence's votes in a map.
func disagreementsReference(x *index, sc *scope) []Disagreement {
	type refVote struct{ part, label int32 }
	votes := map[int64][]refVote{}
	for pi, p := range sc.parts {
		for i := p.lo; i < p.hi; i++ {
			if !x.views[i].empty {
				sid := x.data.Labels[i].SentenceID
				votes[sid] = append(votes[sid], refVote{int32(pi), i})
			}
		}
	}
	who := map[int64]string{}
	for i := range sc.parts {
		who[sc.assignment(i).ID] = sc.assignment(i).Username
	}
	var out []Disagreement
	for sid, vs := range votes {
		var flags []Flag
		for _, f := range x.data.Flags[sid] {
			if name, ok := who[f.AssignmentID]; ok {
				flags = append(flags, Flag{Annotator: name, Note: f.Note})
			}
		}
		var faith, amb, sets []float64
		for _, v := range vs {
			l := &x.views[v.label]
			faith = append(faith, faithValue(l))
			amb = append(amb, ambiguityValue(l))
			if s, ok := errorSet(l); ok {
				sets = append(sets, s)
			}
		}
		d := Disagreement{SentenceID: sid, Assignment: sc.assignment(int(vs[0].part)).ID, Votes: []Vote{}, ErrorTypes: []Vote{},
			Split:          pairSplit(faith, func(a, b float64) float64 { return b2f(a != b) }),
			AmbiguitySplit: pairSplit(amb, func(a, b float64) float64 { return b2f(a != b) }),
			ErrorDistance:  pairSplit(sets, iaa.MASIDistance), Flags: flags}
		if d.Split == 0 && d.ErrorDistance == 0 && d.AmbiguitySplit == 0 && len(flags) == 0 {
			continue
		}
		for code, name := range faithSpec.values {
			var names []string
			for _, v := range vs {
				if int(x.views[v.label].faith) == code {
					names = append(names, sc.assignment(int(v.part)).Username)
				}
			}
			if len(names) > 0 {
				d.Votes = append(d.Votes, Vote{Value: name, Annotators: names})
			}
		}
		for _, ty := range x.settings.ErrorTaxonomy() {
			var names []string
			for _, v := range vs {
				l := &x.views[v.label]
				if !l.empty && l.faith != 0 && slices.Contains(x.data.TypeLists[x.data.Labels[v.label].ErrorTypes], ty.Code) {
					names = append(names, sc.assignment(int(v.part)).Username)
				}
			}
			if len(names) > 0 {
				d.ErrorTypes = append(d.ErrorTypes, Vote{Value: ty.Code, Annotators: names})
			}
		}
		if p, ok := x.sentPos.of(sid); ok {
			s := &x.data.Sentences[p]
			d.Index, d.SummaryID = s.Index, s.SummaryID
			if s.Gold != nil {
				d.Gold = s.Gold.Label
			}
		}
		d.Assistant = x.data.Assistant.Of(sid)
		if len(vs) >= 2 || len(flags) > 0 {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b Disagreement) int {
		return cmp.Or(cmp.Compare(min(len(b.Flags), 1), min(len(a.Flags), 1)), cmp.Compare(b.Split, a.Split), cmp.Compare(b.ErrorDistance, a.ErrorDistance),
			cmp.Compare(b.AmbiguitySplit, a.AmbiguitySplit), cmp.Compare(a.SentenceID, b.SentenceID))
	})
	return out
}

// details reads the text of one sentence as the report lists it.
func details(t *testing.T, x *index, sid int64) (domain.ReportSentenceDetail, bool) {
	t.Helper()
	m, err := x.data.Details([]int64{sid})
	if err != nil {
		t.Fatal(err)
	}
	dt, ok := m[sid]
	return dt, ok
}
