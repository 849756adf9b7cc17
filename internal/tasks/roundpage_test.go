package tasks_test

import (
	"context"
	"slices"
	"testing"

	"annotate/internal/domain"
)

// TestRoundAssignmentsPagesAndPace: the round page's pages, of any size,
// put together are the whole list; a page past the end is empty; and the
// pace rows carry each assignment's annotator, status, active time,
// submission and last label time as the whole list does.
func TestRoundAssignmentsPagesAndPace(t *testing.T) {
	s, p, users, sums := roundFixture(t, 5, 2, 3)
	ctx := context.Background()
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundCalibration, Annotators: users, Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.Queue(ctx, p.ID, users[1])
	if err != nil || len(q) < 2 {
		t.Fatalf("queue %v, %v", q, err)
	}
	sum, err := s.Summary(ctx, q[0].SummaryID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveSentenceLabel(ctx, q[0].ID, users[1], q[0].Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseAssignment(ctx, r.ID, q[1].ID); err != nil {
		t.Fatal(err)
	}
	// Another annotator submits a summary.
	q2, err := s.Queue(ctx, p.ID, users[2])
	if err != nil || len(q2) == 0 {
		t.Fatalf("queue %v, %v", q2, err)
	}
	sum2, err := s.Summary(ctx, q2[0].SummaryID)
	if err != nil {
		t.Fatal(err)
	}
	v := q2[0].Version
	for _, x := range sum2.Sentences {
		if v, err = s.SaveSentenceLabel(ctx, q2[0].ID, users[2], v, domain.SentenceLabel{SentenceID: x.ID, Label: domain.LabelFaithful}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Submit(ctx, q2[0].ID, users[2]); err != nil {
		t.Fatal(err)
	}
	whole, err := s.RoundAssignments(ctx, r.ID)
	if err != nil || len(whole) != len(users)*len(sums) {
		t.Fatalf("%d assignments (%v), want %d", len(whole), err, len(users)*len(sums))
	}
	// The project's overview sums the given-out and submitted assignments
	// from the queue counts: the same as counting them.
	given, submitted := 0, 0
	for _, x := range whole {
		given += b2i(x.Status != domain.StatusReleased)
		submitted += b2i(x.Status == domain.StatusSubmitted)
	}
	o, err := s.ProjectOverview(ctx, p.ID)
	if err != nil || o.Assignments != given || o.Submitted != submitted || submitted == 0 || given == len(whole) {
		t.Fatalf("overview %d given out, %d submitted (%v); the round has %d and %d of %d", o.Assignments, o.Submitted, err, given, submitted, len(whole))
	}
	totals, err := s.RoundTotals(ctx, p.ID)
	if err != nil || totals[r.ID] != (domain.RoundTotal{Total: given, Submitted: submitted}) {
		t.Fatalf("round totals %v (%v), want %d given out, %d submitted", totals, err, given, submitted)
	}
	for _, size := range []int{1, 4, 7, len(whole), len(whole) + 3} {
		var got []domain.RoundAssignment
		for from := 0; from < len(whole)+size; from += size {
			page, err := s.RoundAssignmentsPage(ctx, r.ID, from, size)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) > size || (from >= len(whole) && len(page) != 0) {
				t.Fatalf("size %d from %d: %d rows", size, from, len(page))
			}
			got = append(got, page...)
		}
		if !slices.Equal(got, whole) {
			t.Fatalf("pages of %d put together differ from the whole list", size)
		}
	}
	// The pace counted in SQL against the same counted from the whole
	// list.
	want := map[string]*domain.AnnotatorPace{}
	seconds := map[string][]int{} // each annotator's submitted assignments' active seconds
	labelled := 0
	for _, x := range whole {
		a := want[x.Username]
		if a == nil {
			a = &domain.AnnotatorPace{AnnotatorProgress: domain.AnnotatorProgress{Username: x.Username}}
			want[x.Username] = a
		}
		a.LastActive = max(a.LastActive, x.LastLabel, x.SubmittedAt)
		switch x.Status {
		case domain.StatusSubmitted:
			seconds[x.Username] = append(seconds[x.Username], x.ActiveSeconds)
		case domain.StatusPending, domain.StatusInProgress:
			a.Open++
		}
		if x.LastLabel != "" {
			labelled++
		}
	}
	if labelled != 2 {
		t.Fatalf("%d assignments with a last label time, want 2", labelled)
	}
	got, err := s.RoundPace(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("pace of %d annotators, want %d", len(got), len(want))
	}
	// Its counts (RoundProgress's too) against the same counted from the
	// whole list.
	counts := map[string]domain.AnnotatorProgress{}
	for _, x := range whole {
		c := counts[x.Username]
		c.Username = x.Username
		c.Total += b2i(x.Status != domain.StatusReleased)
		c.Submitted += b2i(x.Status == domain.StatusSubmitted)
		c.InProgress += b2i(x.Status == domain.StatusInProgress)
		c.Pending += b2i(x.Status == domain.StatusPending)
		c.Released += b2i(x.Status == domain.StatusReleased)
		c.ActiveSeconds += x.ActiveSeconds
		counts[x.Username] = c
	}
	prog, err := s.RoundProgress(ctx, r.ID)
	if err != nil || len(prog) != len(got) {
		t.Fatalf("progress of %d annotators (%v), pace of %d", len(prog), err, len(got))
	}
	for i := range prog {
		c := got[i].AnnotatorProgress
		w := counts[c.Username]
		w.UserID, w.DisplayName = c.UserID, c.DisplayName
		if c != w || prog[i] != c {
			t.Fatalf("counts of %s: pace %+v, progress %+v, want %+v", c.Username, c, prog[i], w)
		}
	}
	for i, g := range got {
		w := want[g.Username]
		if w == nil || i > 0 && got[i-1].Username >= g.Username {
			t.Fatalf("pace row %d: %+v (not in username order or unknown)", i, g)
		}
		if xs := seconds[g.Username]; len(xs) > 0 {
			slices.Sort(xs)
			w.MedianSeconds = (xs[(len(xs)-1)/2] + xs[len(xs)/2]) / 2
		}
		if g.LastActive != w.LastActive || g.Open != w.Open || g.MedianSeconds != w.MedianSeconds {
			t.Fatalf("pace of %s: %+v, want %+v", g.Username, g, *w)
		}
	}
	var active []string
	timed := 0
	for _, g := range got {
		if g.LastActive != "" {
			active = append(active, g.Username)
		}
		timed += g.Submitted
	}
	if len(active) != 2 || timed != 1 {
		t.Fatalf("annotators with a last activity: %v, submitted %d; want the two who labelled, one submission", active, timed)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
