package tasks_test

import (
	"reflect"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

// TestQueueTalliesMatchTheVotes checks the tallies the adjudication queue
// reads (PendingSentences, ImportedGoldLabelled) against TallyVotes of
// every vote loaded in full (SummaryVotes), on split sentences with error
// types and ambiguity, an unsubmitted assignment, and an annotator whose
// later submission in a second round replaces their first.
func TestQueueTalliesMatchTheVotes(t *testing.T) {
	f := newGoldFixture(t)
	f.label(0, 0, true, testkit.Faithful(), testkit.Unfaithful("contradiction"), testkit.Ambiguous(testkit.Unfaithful("contradiction", "mis_referencing"), "vagueness"))
	f.label(1, 0, true, testkit.Faithful(), testkit.Unfaithful("contradiction"), testkit.Unfaithful("mis_referencing"))
	f.label(2, 0, true, testkit.Ambiguous(testkit.Faithful(), "vagueness"), testkit.Faithful(), testkit.Unfaithful("reasoning_error"))
	f.label(0, 1, true, testkit.Faithful(), testkit.Faithful(), testkit.Unfaithful("contradiction"))
	f.label(1, 1, false, testkit.Unfaithful("contradiction"), testkit.Faithful(), testkit.Faithful()) // not submitted: no vote
	f.label(2, 1, true, testkit.Unfaithful("mis_referencing"), testkit.Faithful(), testkit.Faithful())
	// ann labels summary 0 again in a second round: her later submission counts.
	r2, err := f.s.CreateRound(f.ctx, f.p.ID, domain.RoundSpec{Name: "again", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{f.users[0].ID}, Summaries: f.sums[:1]})
	if err != nil {
		t.Fatal(err)
	}
	q, err := f.s.Queue(f.ctx, f.p.ID, f.users[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var again domain.Assignment
	for _, a := range q {
		if a.RoundID == r2.ID {
			again = a
		}
	}
	v := again.Version
	for i, l := range []domain.SentenceLabel{testkit.Unfaithful("contradiction"), testkit.Faithful(), testkit.Faithful()} {
		l.SentenceID = f.sents[f.sums[0]][i]
		if v, err = f.s.SaveSentenceLabel(f.ctx, again.ID, f.users[0].ID, v, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.s.Submit(f.ctx, again.ID, f.users[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.ResolveRound(f.ctx, f.p.ID, f.round.ID); err != nil {
		t.Fatal(err)
	}

	want := map[int64]domain.Tally{}
	for _, sum := range f.sums {
		votes, err := f.s.SummaryVotes(f.ctx, sum)
		if err != nil {
			t.Fatal(err)
		}
		for _, sid := range f.sents[sum] {
			var labels []domain.SentenceLabel
			for _, v := range votes[sid] {
				labels = append(labels, v.Label)
			}
			want[sid] = domain.TallyVotes(labels)
		}
	}
	pending, err := f.s.PendingSentences(f.ctx, f.p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) < 3 {
		t.Fatalf("%d sentences waiting; the fixture should leave at least 3 split", len(pending))
	}
	for _, p := range pending {
		if !reflect.DeepEqual(p.Tally, want[p.SentenceID]) {
			t.Errorf("sentence %d: queue tally %+v, want %+v (from every vote)", p.SentenceID, p.Tally, want[p.SentenceID])
		}
	}
	// ann's first-round label of sentence 2 (unfaithful) was replaced by
	// her second-round one (faithful): the tally must show it.
	s2 := f.sents[f.sums[0]][1]
	if w := want[s2]; w.N != 3 || len(w.Labels) != 2 {
		t.Fatalf("reference tally of sentence 2: %+v; want 3 annotators split two ways", w)
	}
}
