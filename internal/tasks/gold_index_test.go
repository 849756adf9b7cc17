package tasks_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// indexFixture is a project of 8 one-summary documents of 3 sentences
// (the first sentence of each with imported gold), 4 annotators, a
// calibration round of summaries 0-5 for everyone and one of summaries
// 3-7 for the first three: summaries 3-5 are in both rounds.
type indexFixture struct {
	t      *testing.T
	ctx    context.Context
	s      *tasks.Store
	p      *domain.Project
	users  []int64
	lead   int64
	rounds []*domain.Round
	sums   []int64
	rng    *rand.Rand
}

func newIndexFixture(t *testing.T, seed uint64) *indexFixture {
	t.Helper()
	ctx := context.Background()
	s := openStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "idx", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	var docs []domain.DocumentInput
	for d := 0; d < 8; d++ {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", d), Sentences: []string{"The council met.", "It voted."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", d), Sentences: []domain.SentenceInput{
				{Text: "The council met.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}}, {Text: "It voted."}, {Text: "It was close."}}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	f := &indexFixture{t: t, ctx: ctx, s: s, p: p, rng: rand.New(rand.NewPCG(seed, 7))}
	for i := 0; i < 4; i++ {
		u, err := s.CreateUser(ctx, fmt.Sprintf("ann%d", i), "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		must(t, s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator))
		f.users = append(f.users, u.ID)
	}
	lead, err := s.CreateUser(ctx, "lea", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	must(t, s.SetMember(ctx, p.ID, lead.ID, domain.RoleLead))
	f.lead = lead.ID
	if f.sums, err = s.SummaryIDs(ctx, p.ID, nil); err != nil || len(f.sums) != 8 {
		t.Fatalf("SummaryIDs = %v, %v", f.sums, err)
	}
	for _, spec := range []domain.RoundSpec{
		{Name: "a", Kind: domain.RoundCalibration, Annotators: f.users, Summaries: f.sums[:6]},
		{Name: "b", Kind: domain.RoundCalibration, Annotators: f.users[:3], Summaries: f.sums[3:]},
	} {
		r, err := s.CreateRound(ctx, p.ID, spec)
		if err != nil {
			t.Fatal(err)
		}
		f.rounds = append(f.rounds, r)
	}
	return f
}

// randomLabel is a label with random error types, ambiguity and,
// sometimes, a flag.
func (f *indexFixture) randomLabel(sentence int64) domain.SentenceLabel {
	l := domain.SentenceLabel{SentenceID: sentence}
	if f.rng.IntN(2) == 0 {
		l.Label = domain.LabelFaithful
	} else {
		l.Label = domain.LabelUnfaithful
		l.ErrorTypes = []string{[]string{"contradiction", "mis_referencing", "reasoning_error"}[f.rng.IntN(3)]}
		l.Explanation = "why"
	}
	if f.rng.IntN(3) == 0 {
		yes := true
		l.Ambiguous, l.AmbiguityType, l.AmbiguityNote = &yes, "vagueness", "two readings"
	}
	if f.rng.IntN(8) == 0 {
		l.Flag = "the split looks wrong"
	}
	return l
}

// step does one random thing a team does: label (and mostly submit) an
// open assignment, edit a submitted one, release one, decide, reopen or
// accept majorities.
func (f *indexFixture) step() string {
	ctx, s := f.ctx, f.s
	switch k := f.rng.IntN(13); {
	case k < 7: // label an assignment, submitted or not (k 6: edit a submitted one)
		u := f.users[f.rng.IntN(len(f.users))]
		q, err := s.Queue(ctx, f.p.ID, u)
		must(f.t, err)
		var open []domain.Assignment
		for _, a := range q {
			if a.Status != domain.StatusReleased && (a.Status != domain.StatusSubmitted || k == 6) {
				open = append(open, a)
			}
		}
		if len(open) == 0 {
			return "nothing to label"
		}
		a := open[f.rng.IntN(len(open))]
		sum, err := s.Summary(ctx, a.SummaryID)
		must(f.t, err)
		v := a.Version
		for _, x := range sum.Sentences {
			if v, err = s.SaveSentenceLabel(ctx, a.ID, u, v, f.randomLabel(x.ID)); err != nil {
				return "label refused: " + err.Error()
			}
		}
		if a.Status != domain.StatusSubmitted && f.rng.IntN(4) != 0 {
			if err := s.Submit(ctx, a.ID, u); err != nil {
				f.t.Fatalf("submit: %v", err)
			}
			return fmt.Sprintf("labelled and submitted assignment %d", a.ID)
		}
		return fmt.Sprintf("labelled assignment %d", a.ID)
	case k == 7: // release an assignment
		r := f.rounds[f.rng.IntN(len(f.rounds))]
		rows, err := s.RoundAssignments(ctx, r.ID)
		must(f.t, err)
		if len(rows) == 0 {
			return "nothing to release"
		}
		a := rows[f.rng.IntN(len(rows))]
		if err := s.ReleaseAssignment(ctx, r.ID, a.ID); err != nil {
			return "release refused: " + err.Error()
		}
		return fmt.Sprintf("released assignment %d", a.ID)
	case k == 8 || k == 9: // decide or reopen a sentence
		sum := f.sums[f.rng.IntN(len(f.sums))]
		versions, err := s.GoldVersions(ctx, sum)
		must(f.t, err)
		var ids []int64
		for id := range versions {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		id := ids[f.rng.IntN(len(ids))]
		if k == 8 {
			d := domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful, ErrorTypes: []string{}}}
			if _, err := s.SetGold(ctx, f.p.ID, id, f.lead, versions[id], d); err != nil {
				return "decision refused: " + err.Error()
			}
			return fmt.Sprintf("decided sentence %d", id)
		}
		if err := s.Reopen(ctx, f.p.ID, id, f.lead, versions[id], "again"); err != nil {
			return "reopen refused: " + err.Error()
		}
		return fmt.Sprintf("reopened sentence %d", id)
	case k == 10:
		r := f.rounds[f.rng.IntN(len(f.rounds))]
		n, err := s.AcceptMajority(ctx, f.p.ID, r.ID, f.lead)
		must(f.t, err)
		return fmt.Sprintf("accepted %d majorities in round %s", n, r.Name)
	case k == 11: // a new round over some summaries, for the fourth annotator
		var sums []int64
		for _, id := range f.sums {
			if f.rng.IntN(3) == 0 {
				sums = append(sums, id)
			}
		}
		if len(sums) == 0 || len(f.rounds) >= 4 {
			return "no new round"
		}
		r, err := s.CreateRound(ctx, f.p.ID, domain.RoundSpec{Name: fmt.Sprintf("r%d", len(f.rounds)+1), Kind: domain.RoundCalibration,
			Annotators: f.users[3:], Summaries: sums})
		must(f.t, err)
		f.rounds = append(f.rounds, r)
		return "started round " + r.Name
	default:
		r := f.rounds[f.rng.IntN(len(f.rounds))]
		_, err := s.ResolveRound(ctx, f.p.ID, r.ID)
		must(f.t, err)
		return "resolved round " + r.Name
	}
}

// check compares every page and count of the queue, read from the gold
// index, with PendingSentences (tallied from the labels on each call),
// and the imported-gold list with one made from the summaries' votes.
func (f *indexFixture) check(what string) {
	f.t.Helper()
	ctx, s := f.ctx, f.s
	ref, err := s.PendingSentences(ctx, f.p.ID)
	must(f.t, err)
	for _, r := range append([]*domain.Round{{}}, f.rounds...) {
		for _, dim := range append([]string{""}, domain.Dimensions...) {
			for _, flagged := range []bool{false, true} {
				filter := domain.QueueFilter{RoundID: r.ID, Dimension: dim, Flagged: flagged}
				var want, got []domain.PendingSentence
				ready := map[int64]int{}
				nflagged := 0
				for _, p := range ref {
					if filter.Keep(p) {
						want = append(want, p)
					}
					if len(p.Flags) > 0 {
						nflagged++
					}
					for _, id := range p.Rounds {
						if p.MajorityReady() {
							ready[id]++
						}
					}
				}
				const size = 2
				for from := 0; ; from += size {
					page, err := s.AdjudicationQueue(ctx, f.p.ID, filter, from, size)
					must(f.t, err)
					if page.Pending != len(ref) || page.Flagged != nflagged || page.Matching != len(want) || !reflect.DeepEqual(page.Ready, ready) {
						f.t.Fatalf("after %s, filter %+v: pending %d flagged %d matching %d ready %v; want %d %d %d %v",
							what, filter, page.Pending, page.Flagged, page.Matching, page.Ready, len(ref), nflagged, len(want), ready)
					}
					if from >= len(want) {
						if len(want) > 0 && page.From != (len(want)-1)/size*size {
							f.t.Fatalf("after %s: from %d past the end came back as %d", what, from, page.From)
						}
						break
					}
					got = append(got, page.Items...)
				}
				if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
					f.t.Fatalf("after %s, filter %+v: pages\n%+v\nwant\n%+v", what, filter, got, want)
				}
			}
		}
		if r.ID != 0 {
			waiting, flagged, behind, err := s.RoundQueueCounts(ctx, f.p.ID, r.ID)
			must(f.t, err)
			w, fl := 0, 0
			for _, p := range ref {
				if p.InRound(r.ID) {
					w++
					if len(p.Flags) > 0 {
						fl++
					}
				}
			}
			if waiting != w || flagged != fl || behind != 0 {
				f.t.Fatalf("after %s: round %s waiting %d flagged %d behind %d, want %d %d 0", what, r.Name, waiting, flagged, behind, w, fl)
			}
		}
	}
	checkRoundGold(f.t, ctx, s, f.p.ID)
	if d := tasks.GoldCountsDrift(f.t, s); d != "" {
		f.t.Fatalf("after %s: %s", what, d)
	}

	type imp struct {
		sentence, summary int64
		idx, against      int
	}
	var wantImp []imp
	for _, sum := range f.sums {
		gold, err := s.SummaryGold(ctx, sum)
		must(f.t, err)
		votes, err := s.SummaryVotes(ctx, sum)
		must(f.t, err)
		summ, err := s.Summary(ctx, sum)
		must(f.t, err)
		for _, x := range summ.Sentences {
			g, ok := gold[x.ID]
			if !ok || g.Provenance != domain.ProvImported || len(votes[x.ID]) == 0 {
				continue
			}
			against := 0
			for _, v := range votes[x.ID] {
				if v.Label.Label != "" && v.Label.Label != g.Label {
					against++
				}
			}
			wantImp = append(wantImp, imp{x.ID, sum, x.Index, against})
		}
	}
	sort.SliceStable(wantImp, func(i, j int) bool {
		a, b := wantImp[i], wantImp[j]
		if a.against != b.against {
			return a.against > b.against
		}
		if a.summary != b.summary {
			return a.summary < b.summary
		}
		return a.idx < b.idx
	})
	gotImp, err := s.ImportedGoldLabelled(ctx, f.p.ID, 100)
	must(f.t, err)
	if len(gotImp) != len(wantImp) {
		f.t.Fatalf("after %s: %d imported gold sentences labelled, want %d", what, len(gotImp), len(wantImp))
	}
	for i, g := range gotImp {
		w := wantImp[i]
		if g.SentenceID != w.sentence || g.Against != w.against {
			f.t.Fatalf("after %s: imported #%d is sentence %d against %d, want %d against %d", what, i, g.SentenceID, g.Against, w.sentence, w.against)
		}
	}
}

// TestGoldIndexMatchesTheLabels runs random days of labelling,
// submissions, edits after submission, releases, decisions, reopenings
// and accepted majorities, and after every step compares each page and
// count of the adjudication queue (every round, dimension and flag
// filter), the rounds' gold counts and the imported-gold list, all read
// from the gold index, with the same computed from the labels.
func TestGoldIndexMatchesTheLabels(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			f := newIndexFixture(t, seed)
			f.check("the import")
			waited := 0
			for i := 0; i < 45; i++ {
				what := f.step()
				f.check(what)
				if p, _ := f.s.PendingSentences(f.ctx, f.p.ID); len(p) > 0 {
					waited++
				}
			}
			if waited == 0 {
				t.Fatal("no sentence ever waited in the queue: the run checked nothing")
			}
		})
	}
}
