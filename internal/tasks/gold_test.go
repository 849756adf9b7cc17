package tasks_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// goldFixture is a project with one document, two summaries of three
// sentences and a calibration round for three annotators.
type goldFixture struct {
	t      *testing.T
	ctx    context.Context
	s      *tasks.Store
	p      *domain.Project
	round  *domain.Round
	users  []*domain.User
	lead   *domain.User
	sums   []int64
	sents  map[int64][]int64  // summary -> sentence ids
	assign map[[2]int64]int64 // (user, summary) -> assignment id
}

func newGoldFixture(t *testing.T) *goldFixture {
	t.Helper()
	ctx := context.Background()
	s := openStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "gold", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	doc := domain.DocumentInput{ExternalID: "d1", Sentences: []string{"The council met.", "It approved the budget.", "The vote was close."}}
	for k := 1; k <= 2; k++ {
		doc.Summaries = append(doc.Summaries, domain.SummaryInput{ExternalID: fmt.Sprintf("s%d", k),
			Sentences: []domain.SentenceInput{{Text: "The council met."}, {Text: "It approved the budget."}, {Text: "The vote was unanimous."}}})
	}
	if _, err := s.Import(ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	f := &goldFixture{t: t, ctx: ctx, s: s, p: p, sents: map[int64][]int64{}, assign: map[[2]int64]int64{}}
	var ids []int64
	for _, name := range []string{"ann", "bob", "cat"} {
		u, err := s.CreateUser(ctx, name, "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator)
		f.users = append(f.users, u)
		ids = append(ids, u.ID)
	}
	f.lead, _ = s.CreateUser(ctx, "lea", "", "a long enough password", false)
	s.SetMember(ctx, p.ID, f.lead.ID, domain.RoleLead)
	f.sums, _ = s.SummaryIDs(ctx, p.ID, nil)
	if f.round, err = s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "cal", Kind: domain.RoundCalibration, Annotators: ids, Summaries: f.sums}); err != nil {
		t.Fatal(err)
	}
	for _, sid := range f.sums {
		sum, _ := s.Summary(ctx, sid)
		for _, x := range sum.Sentences {
			f.sents[sid] = append(f.sents[sid], x.ID)
		}
	}
	for _, u := range f.users {
		q, _ := s.Queue(ctx, p.ID, u.ID)
		for _, a := range q {
			f.assign[[2]int64{u.ID, a.SummaryID}] = a.ID
		}
	}
	return f
}

// label saves one user's labels on every sentence of a summary and, with
// submit, submits the assignment.
func (f *goldFixture) label(user int, summary int, submit bool, labels ...domain.SentenceLabel) {
	f.t.Helper()
	u := f.users[user]
	sid := f.sums[summary]
	aid := f.assign[[2]int64{u.ID, sid}]
	a, err := f.s.AssignmentByID(f.ctx, aid)
	if err != nil {
		f.t.Fatal(err)
	}
	v := a.Version
	for i, l := range labels {
		l.SentenceID = f.sents[sid][i]
		if v, err = f.s.SaveSentenceLabel(f.ctx, aid, u.ID, v, l); err != nil {
			f.t.Fatalf("label %s sentence %d: %v", u.Username, i+1, err)
		}
	}
	if submit {
		if err := f.s.Submit(f.ctx, aid, u.ID); err != nil {
			f.t.Fatalf("submit %s: %v", u.Username, err)
		}
	}
}

func (f *goldFixture) gold(summary, sentence int) (domain.Gold, bool) {
	f.t.Helper()
	g, err := f.s.SummaryGold(f.ctx, f.sums[summary])
	if err != nil {
		f.t.Fatal(err)
	}
	x, ok := g[f.sents[f.sums[summary]][sentence]]
	return x, ok
}

func (f *goldFixture) historyLen() int {
	f.t.Helper()
	h, err := f.s.GoldHistory(f.ctx, f.p.ID, 0, 1000)
	if err != nil {
		f.t.Fatal(err)
	}
	return len(h)
}

// splitSummary labels summary 0: sentence 1 all faithful, sentence 2 two
// unfaithful (same type) against one faithful, sentence 3 one to one to
// one on error types.
func (f *goldFixture) splitSummary(submitLast bool) {
	f.label(0, 0, true, testkit.Faithful(), testkit.Unfaithful("contradiction"), testkit.Unfaithful("contradiction"))
	f.label(1, 0, true, testkit.Faithful(), testkit.Unfaithful("contradiction"), testkit.Unfaithful("mis_referencing"))
	f.label(2, 0, submitLast, testkit.Faithful(), testkit.Faithful(), testkit.Unfaithful("reasoning_error"))
}

func TestResolveWaitsForEveryAssignment(t *testing.T) {
	f := newGoldFixture(t)
	f.splitSummary(false)
	st, err := f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.gold(0, 0); ok || st.Summaries != 0 {
		t.Fatalf("resolved a summary with an unsubmitted assignment: %+v", st)
	}
	// Releasing the unsubmitted assignment makes the summary ready with
	// the two labels that are in.
	if err := f.s.ReleaseAssignment(f.ctx, f.round.ID, f.assign[[2]int64{f.users[2].ID, f.sums[0]}]); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID); err != nil {
		t.Fatal(err)
	}
	g, ok := f.gold(0, 1)
	if !ok || g.Provenance != domain.ProvUnanimous || g.Label != domain.LabelUnfaithful {
		t.Fatalf("sentence 2 after release: %+v (present %v), want unanimous unfaithful from the two submitted labels", g, ok)
	}
}

func TestResolveRound(t *testing.T) {
	f := newGoldFixture(t)
	f.splitSummary(true)
	// The last submission resolved the summary; resolving the round
	// again finds nothing to change.
	st, err := f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Summaries != 1 || st.Unanimous != 0 || st.Pending != 0 {
		t.Fatalf("stats %+v, want 1 summary looked at and nothing new", st)
	}
	g1, _ := f.gold(0, 0)
	if g1.Provenance != domain.ProvUnanimous || g1.Label != domain.LabelFaithful || g1.Ambiguous == nil || *g1.Ambiguous || g1.DecidedBy != 0 {
		t.Fatalf("sentence 1 gold %+v, want unanimous faithful, not ambiguous, decided by nobody", g1)
	}
	for i := 1; i <= 2; i++ {
		if g, _ := f.gold(0, i); g.Provenance != domain.ProvUnresolved || g.Label != "" {
			t.Fatalf("sentence %d gold %+v, want unresolved without a label", i+1, g)
		}
	}
	if _, err := f.s.SummaryGoldOf(f.ctx, f.sums[0]); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("summary gold with pending sentences: %v", err)
	}

	t.Run("idempotent", func(t *testing.T) {
		before := f.historyLen()
		st, err := f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after := f.historyLen(); after != before || st.Unanimous+st.Pending != 0 {
			t.Fatalf("second resolution wrote %d history entries (%+v)", after-before, st)
		}
	})

	t.Run("counts", func(t *testing.T) {
		counts := checkRoundGold(t, f.ctx, f.s, f.p.ID)
		if len(counts) != 1 {
			t.Fatalf("counts %v", counts)
		}
		c := counts[0]
		// Summary 1 has nobody's labels yet: its three sentences wait.
		if c.Sentences != 6 || c.Unanimous != 1 || c.Pending != 2 || c.Waiting != 3 || c.Majority+c.Adjudicated+c.Imported != 0 {
			t.Fatalf("counts %+v", c)
		}
	})

	t.Run("queue most split first", func(t *testing.T) {
		q, err := f.s.PendingSentences(f.ctx, f.p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(q) != 2 {
			t.Fatalf("queue has %d sentences, want 2", len(q))
		}
		// Sentence 3: labels 2:1 but error types 1:1 among the two who
		// said unfaithful (split 0.5); sentence 2: labels 2:1 (1/3).
		if q[0].Index != 3 || q[1].Index != 2 {
			t.Fatalf("queue order %d, %d; want 3, 2", q[0].Index, q[1].Index)
		}
		filtered := 0
		for _, p := range q {
			if (domain.QueueFilter{RoundID: f.round.ID, Dimension: domain.DimErrorTypes}).Keep(p) {
				filtered++
				if p.Index != 3 {
					t.Errorf("error-type filter kept sentence %d", p.Index)
				}
			}
		}
		if filtered != 1 {
			t.Fatalf("error-type filter kept %d sentences, want 1", filtered)
		}
		if (domain.QueueFilter{RoundID: f.round.ID + 1}).Keep(q[0]) {
			t.Fatal("round filter kept a sentence of another round")
		}
		if !q[1].MajorityReady() || q[0].MajorityReady() {
			t.Fatalf("majority ready: sentence 2 %v, sentence 3 %v; want true, false", q[1].MajorityReady(), q[0].MajorityReady())
		}
	})
}

func TestResolveReadyFindsNewlyReadySummaries(t *testing.T) {
	f := newGoldFixture(t)
	f.splitSummary(true)
	if g, ok := f.gold(0, 0); !ok || g.Provenance != domain.ProvUnanimous {
		t.Fatalf("after the last submission sentence 1 has gold %+v (present %v), want unanimous", g, ok)
	}
	if st, _ := f.s.ResolveReady(f.ctx, f.p.ID); st.Summaries != 0 {
		t.Fatalf("ResolveReady after submission looked at %d summaries, want 0", st.Summaries)
	}
	// A summary that became ready before resolution ran at submission
	// (its gold rows absent) is caught up.
	db, err := sql.Open("sqlite", f.s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM gold_sentences`); err != nil {
		t.Fatal(err)
	}
	st, err := f.s.ResolveAllReady(f.ctx)
	if err != nil || st.Summaries != 1 || st.Unanimous != 1 || st.Pending != 2 {
		t.Fatalf("ResolveAllReady = %+v, %v; want 1 summary, 1 unanimous, 2 pending", st, err)
	}
	if st, _ := f.s.ResolveReady(f.ctx, f.p.ID); st.Summaries != 0 {
		t.Fatalf("second ResolveReady looked at %d summaries, want 0", st.Summaries)
	}
	if _, err := f.s.ResolveSummary(f.ctx, f.sums[1]); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.gold(1, 0); ok {
		t.Fatal("ResolveSummary resolved a summary nobody has submitted")
	}
}

func TestAcceptMajority(t *testing.T) {
	f := newGoldFixture(t)
	f.splitSummary(true)
	f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
	n, err := f.s.AcceptMajority(f.ctx, f.p.ID, f.round.ID, f.lead.ID)
	if err != nil || n != 1 {
		t.Fatalf("AcceptMajority = %d, %v; want 1", n, err)
	}
	g, _ := f.gold(0, 1)
	if g.Provenance != domain.ProvMajority || g.Label != domain.LabelUnfaithful || len(g.ErrorTypes) != 1 || g.ErrorTypes[0] != "contradiction" || g.DecidedBy != f.lead.ID {
		t.Fatalf("sentence 2 gold %+v, want majority unfaithful/contradiction by the lead", g)
	}
	if g, _ := f.gold(0, 2); g.Provenance != domain.ProvUnresolved {
		t.Fatalf("sentence 3 without a majority became %q", g.Provenance)
	}
	// Auto-resolution does not undo an accepted majority.
	f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
	if g, _ := f.gold(0, 1); g.Provenance != domain.ProvMajority {
		t.Fatalf("resolution replaced majority gold with %q", g.Provenance)
	}
	if _, err := f.s.AcceptMajority(f.ctx, f.p.ID, f.round.ID+100, f.lead.ID); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("unknown round: %v", err)
	}
	// Both look the round up in the project they are given.
	if _, err := f.s.AcceptMajority(f.ctx, f.p.ID+1, f.round.ID, f.lead.ID); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("another project's round: %v", err)
	}
	if _, err := f.s.ResolveRound(f.ctx, f.p.ID+1, f.round.ID); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("resolving another project's round: %v", err)
	}
}

func TestSetGoldReopenAndHistory(t *testing.T) {
	f := newGoldFixture(t)
	f.splitSummary(true)
	f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
	f.s.AcceptMajority(f.ctx, f.p.ID, f.round.ID, f.lead.ID)
	s3 := f.sents[f.sums[0]][2]
	rawBefore, _ := f.s.SentenceLabels(f.ctx, f.assign[[2]int64{f.users[0].ID, f.sums[0]}])
	versions, _ := f.s.GoldVersions(f.ctx, f.sums[0])

	t.Run("invalid decisions are refused", func(t *testing.T) {
		for name, d := range map[string]domain.GoldDecision{
			"no label":          {},
			"no error type":     {GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful}},
			"unknown type":      {GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful, ErrorTypes: []string{"nope"}}},
			"ambiguous no type": {GoldValues: domain.GoldValues{Label: domain.LabelFaithful, Ambiguous: testkit.Ptr(true)}},
		} {
			if _, err := f.s.SetGold(f.ctx, f.p.ID, s3, f.lead.ID, versions[s3], d); domain.ErrorCode(err) != domain.EInvalid {
				t.Errorf("%s: %v, want invalid", name, err)
			}
		}
	})

	d := domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful, ErrorTypes: []string{"reasoning_error"}, Ambiguous: testkit.Ptr(true), AmbiguityType: "vagueness"},
		Note: "  'Unanimous' overstates a close vote.  "}
	g, err := f.s.SetGold(f.ctx, f.p.ID, s3, f.lead.ID, versions[s3], d)
	if err != nil {
		t.Fatal(err)
	}
	if g.Provenance != domain.ProvAdjudicated || g.DecidedBy != f.lead.ID || g.DecidedByName != "lea" || g.DecidedAt == "" ||
		g.Note != "'Unanimous' overstates a close vote." || g.AmbiguityType != "vagueness" || g.ErrorTypes[0] != "reasoning_error" {
		t.Fatalf("adjudicated gold %+v", g)
	}
	sg, err := f.s.SummaryGoldOf(f.ctx, f.sums[0])
	if err != nil || sg.Label != domain.LabelUnfaithful || sg.Provenance != domain.ProvAdjudicated {
		t.Fatalf("summary gold %+v, %v; want unfaithful, adjudicated", sg, err)
	}

	t.Run("a stale version is a conflict", func(t *testing.T) {
		if _, err := f.s.SetGold(f.ctx, f.p.ID, s3, f.lead.ID, versions[s3], d); domain.ErrorCode(err) != domain.EConflict {
			t.Fatalf("stale save: %v, want conflict", err)
		}
	})
	t.Run("resolution leaves adjudicated gold alone", func(t *testing.T) {
		f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
		if g, _ := f.gold(0, 2); g.Provenance != domain.ProvAdjudicated {
			t.Fatalf("provenance %q after resolution", g.Provenance)
		}
	})
	t.Run("another project's sentence is not found", func(t *testing.T) {
		if _, err := f.s.SetGold(f.ctx, f.p.ID+1, s3, f.lead.ID, -1, d); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("%v, want not found", err)
		}
	})

	// Reopen the unanimous first sentence: the lead thinks everyone missed
	// something. Resolution must not resolve it again.
	s1 := f.sents[f.sums[0]][0]
	versions, _ = f.s.GoldVersions(f.ctx, f.sums[0])
	if err := f.s.Reopen(f.ctx, f.p.ID, s1, f.lead.ID, versions[s1], "Check the date"); err != nil {
		t.Fatal(err)
	}
	f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID)
	g1, _ := f.gold(0, 0)
	if g1.Provenance != domain.ProvUnresolved || !g1.Reopened() || g1.Label != "" || g1.Note != "Check the date" {
		t.Fatalf("reopened gold %+v", g1)
	}
	if _, err := f.s.SummaryGoldOf(f.ctx, f.sums[0]); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("summary gold after reopening: %v, want withdrawn", err)
	}
	if err := f.s.Reopen(f.ctx, f.p.ID, s1, f.lead.ID, -1, ""); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("reopening twice: %v, want conflict", err)
	}
	q, _ := f.s.PendingSentences(f.ctx, f.p.ID)
	var reopened *domain.PendingSentence
	for i := range q {
		if q[i].SentenceID == s1 {
			reopened = &q[i]
		}
	}
	if reopened == nil || !reopened.Reopened || reopened.MajorityReady() {
		t.Fatalf("reopened sentence in the queue: %+v", reopened)
	}

	h, err := f.s.GoldHistory(f.ctx, f.p.ID, f.sums[0], 100)
	if err != nil {
		t.Fatal(err)
	}
	var provs []string
	for _, c := range h {
		if c.SentenceID == s1 {
			provs = append(provs, c.Gold.Provenance)
		}
	}
	// Newest first: reopened, then the unanimous resolution.
	if len(provs) != 2 || provs[0] != domain.ProvUnresolved || provs[1] != domain.ProvUnanimous || h[0].By != "lea" {
		t.Fatalf("history of sentence 1: %v (newest by %q)", provs, h[0].By)
	}

	rawAfter, _ := f.s.SentenceLabels(f.ctx, f.assign[[2]int64{f.users[0].ID, f.sums[0]}])
	for id, l := range rawBefore {
		if a := rawAfter[id]; a.Label != l.Label || a.UpdatedAt != l.UpdatedAt || fmt.Sprint(a.ErrorTypes) != fmt.Sprint(l.ErrorTypes) {
			t.Fatalf("raw label of sentence %d changed: %+v -> %+v", id, l, a)
		}
	}
}

func TestResolveKeepsImportedGold(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "imp", Settings: domain.DefaultSettings()})
	doc := domain.DocumentInput{ExternalID: "d", Sentences: []string{"A."}, Summaries: []domain.SummaryInput{{ExternalID: "s",
		Sentences: []domain.SentenceInput{{Text: "A.", Gold: &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}}}, {Text: "B."}}}}}
	if _, err := s.Import(ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, n := range []string{"u1", "u2"} {
		u, _ := s.CreateUser(ctx, n, "", "a long enough password", false)
		s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator)
		ids = append(ids, u.ID)
	}
	sums, _ := s.SummaryIDs(ctx, p.ID, nil)
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundCalibration, Annotators: ids, Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := s.Summary(ctx, sums[0])
	for _, uid := range ids {
		q, _ := s.Queue(ctx, p.ID, uid)
		v := 0
		for _, x := range sum.Sentences {
			l := testkit.Faithful()
			l.SentenceID = x.ID
			v, _ = s.SaveSentenceLabel(ctx, q[0].ID, uid, v, l)
		}
		if err := s.Submit(ctx, q[0].ID, uid); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ResolveRound(ctx, p.ID, r.ID); err != nil {
		t.Fatal(err)
	}
	g, _ := s.SummaryGold(ctx, sums[0])
	if g[sum.Sentences[0].ID].Provenance != domain.ProvImported || g[sum.Sentences[0].ID].Label != domain.LabelUnfaithful {
		t.Fatalf("imported gold became %+v", g[sum.Sentences[0].ID])
	}
	if g[sum.Sentences[1].ID].Provenance != domain.ProvUnanimous {
		t.Fatalf("sentence without imported gold: %+v", g[sum.Sentences[1].ID])
	}
	// Imported unfaithful plus unanimous faithful: the summary is unfaithful.
	sg, err := s.SummaryGoldOf(ctx, sums[0])
	if err != nil || sg.Label != domain.LabelUnfaithful || sg.Provenance != domain.ProvUnanimous {
		t.Fatalf("summary gold %+v, %v", sg, err)
	}
}

// TestFlaggedSentenceWaitsForALead: all three annotators agree on every
// sentence, but one flags the second with a note: the others become
// unanimous gold, the flagged one waits in the adjudication queue with
// the note, is kept by the queue's flagged filter, and is never decided by
// accepting majorities in bulk.
func TestFlaggedSentenceWaitsForALead(t *testing.T) {
	f := newGoldFixture(t)
	f.label(0, 0, true, testkit.Faithful(), testkit.Faithful(), testkit.Faithful())
	f.label(1, 0, true, testkit.Faithful(), testkit.Faithful(), testkit.Faithful())
	flagged := testkit.Faithful()
	flagged.Flag = "Is 'approved' right? The transcript says deferred."
	f.label(2, 0, true, testkit.Faithful(), flagged, testkit.Faithful())
	for i, want := range []string{domain.ProvUnanimous, domain.ProvUnresolved, domain.ProvUnanimous} {
		if g, ok := f.gold(0, i); !ok || g.Provenance != want {
			t.Errorf("sentence %d: gold %+v (%v), want %s", i+1, g, ok, want)
		}
	}
	pending, err := f.s.PendingSentences(f.ctx, f.p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var found *domain.PendingSentence
	for i := range pending {
		if pending[i].SentenceID == f.sents[f.sums[0]][1] {
			found = &pending[i]
		}
	}
	if found == nil || len(found.Flags) != 1 || found.Flags[0] != flagged.Flag {
		t.Fatalf("the flagged sentence in the queue: %+v", found)
	}
	if !(domain.QueueFilter{Flagged: true}).Keep(*found) || found.MajorityReady() {
		t.Errorf("flagged filter keeps it: %v; ready for a bulk majority: %v", (domain.QueueFilter{Flagged: true}).Keep(*found), found.MajorityReady())
	}
	for _, p := range pending {
		if p.SentenceID != found.SentenceID && (domain.QueueFilter{Flagged: true}).Keep(p) {
			t.Errorf("the flagged filter keeps unflagged sentence %d", p.SentenceID)
		}
	}
}
