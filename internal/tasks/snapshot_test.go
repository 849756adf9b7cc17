package tasks_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

// TestSnapshotReadsOneState makes a gold decision while a page's snapshot
// is open: the snapshot keeps seeing the gold and version it saw first, so
// the page's decision names the old version and is refused as a conflict
// instead of overwriting the other one unseen.
func TestSnapshotReadsOneState(t *testing.T) {
	f := newGoldFixture(t)
	f.splitSummary(true)
	sid := f.sents[f.sums[0]][1] // split: unresolved
	var seen domain.Gold
	err := f.s.Snapshot(f.ctx, func(ctx context.Context) error {
		g, err := f.s.SummaryGold(ctx, f.sums[0])
		if err != nil {
			return err
		}
		seen = g[sid]
		// Another adjudicator decides meanwhile.
		if _, err := f.s.SetGold(f.ctx, f.p.ID, sid, f.lead.ID, seen.Version, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful, ErrorTypes: []string{}, Ambiguous: new(bool)}}); err != nil {
			return err
		}
		again, err := f.s.SummaryGold(ctx, f.sums[0])
		if err != nil {
			return err
		}
		versions, err := f.s.GoldVersions(ctx, f.sums[0])
		if err != nil {
			return err
		}
		if again[sid].Version != seen.Version || again[sid].Provenance != seen.Provenance || versions[sid] != seen.Version {
			t.Errorf("inside the snapshot: gold %+v, version %d; want what was first seen, %+v", again[sid], versions[sid], seen)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	now, _ := f.s.SummaryGold(f.ctx, f.sums[0])
	if now[sid].Version != seen.Version+1 || now[sid].Provenance != domain.ProvAdjudicated {
		t.Fatalf("after the snapshot: %+v, want the decision at version %d", now[sid], seen.Version+1)
	}
	_, err = f.s.SetGold(f.ctx, f.p.ID, sid, f.users[0].ID, seen.Version, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful, ErrorTypes: []string{}, Ambiguous: new(bool)}})
	if domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("a decision on the version seen before the other one: %v, want a conflict", err)
	}
}

// TestQueueNav compares the position, neighbours and counts QueueNav
// finds with the whole queue, before and after a submission and a release.
func TestQueueNav(t *testing.T) {
	f := newGoldFixture(t)
	check := func(when string, user *domain.User) {
		t.Helper()
		q, err := f.s.Queue(f.ctx, f.p.ID, user.ID)
		if err != nil {
			t.Fatal(err)
		}
		done := 0
		for _, a := range q {
			if a.Status == domain.StatusSubmitted {
				done++
			}
		}
		for i, a := range q {
			got, err := f.s.QueueNav(f.ctx, &a)
			if err != nil {
				t.Fatal(err)
			}
			want := domain.QueueNav{Position: i + 1, Total: len(q), Done: done}
			if i > 0 {
				want.Prev = q[i-1].ID
			}
			if i+1 < len(q) {
				want.Next = q[i+1].ID
			}
			if got != want {
				t.Errorf("%s: assignment %d: %+v, want %+v", when, a.ID, got, want)
			}
		}
	}
	ann := f.users[0]
	check("fresh", ann)
	f.label(0, 0, true, testkit.Faithful(), testkit.Faithful(), testkit.Faithful())
	check("one submitted", ann)
	q, _ := f.s.Queue(f.ctx, f.p.ID, ann.ID)
	next, err := f.s.NextOpen(f.ctx, &q[0])
	if err != nil || next != q[1].ID {
		t.Fatalf("next open after the first: %d, %v; want %d", next, err, q[1].ID)
	}
	if next, _ := f.s.NextOpen(f.ctx, &q[1]); next != 0 {
		t.Fatalf("next open after the last with the first submitted: %d, want 0", next)
	}
	if err := f.s.ReleaseAssignment(f.ctx, f.round.ID, q[1].ID); err != nil {
		t.Fatal(err)
	}
	check("one released", ann)
	released, _ := f.s.AssignmentByID(f.ctx, q[1].ID)
	if nav, _ := f.s.QueueNav(f.ctx, released); nav.Position != 0 || nav.Total != 1 {
		t.Fatalf("a released assignment: %+v, want no position in a queue of 1", nav)
	}
}

// TestQueueCounts checks the counts and next assignment of the queue page
// against the whole queue, and its pages.
func TestQueueCounts(t *testing.T) {
	f := newGoldFixture(t)
	ann := f.users[0]
	f.label(0, 0, true, testkit.Faithful(), testkit.Faithful(), testkit.Faithful())
	q, _ := f.s.Queue(f.ctx, f.p.ID, ann.ID)
	got, err := f.s.QueueCounts(f.ctx, f.p.ID, ann.ID)
	want := domain.QueueSummary{Total: 2, Done: 1, NextOpen: q[1].ID, NextRank: 1}
	if err != nil || got != want {
		t.Fatalf("QueueCounts = %+v, %v; want %+v", got, err, want)
	}
	page, err := f.s.QueueEntriesPage(f.ctx, f.p.ID, ann.ID, 1, 10)
	if err != nil || len(page) != 1 || page[0].ID != q[1].ID {
		t.Fatalf("second entry on: %+v, %v", page, err)
	}
	f.label(0, 1, true, testkit.Faithful(), testkit.Faithful(), testkit.Faithful())
	if got, _ := f.s.QueueCounts(f.ctx, f.p.ID, ann.ID); got.Done != 2 || got.NextOpen != 0 {
		t.Fatalf("all submitted: %+v", got)
	}
}

// TestPseudonymsReadInTheSnapshot checks that Store.Pseudonyms, which the
// anonymous adjudication page calls inside its snapshot, reads from the
// snapshot's transaction: a member added meanwhile is not named, and
// pages holding every read connection of the pool still finish (each
// waited for a second connection none of them would free, until its
// deadline).
func TestPseudonymsReadInTheSnapshot(t *testing.T) {
	f := newGoldFixture(t)
	late, err := f.s.CreateUser(f.ctx, "late", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	err = f.s.Snapshot(f.ctx, func(ctx context.Context) error {
		if _, err := f.s.Pseudonyms(ctx, f.p.ID); err != nil { // the snapshot's state is fixed by a first read
			return err
		}
		if err := f.s.SetMember(f.ctx, f.p.ID, late.ID, domain.RoleAnnotator); err != nil {
			return err
		}
		ps, err := f.s.Pseudonyms(ctx, f.p.ID)
		if err != nil {
			return err
		}
		if ps.ID(late.ID) != "" || ps.ID(f.users[0].ID) == "" {
			t.Errorf("inside the snapshot: late member %q, first annotator %q; want none and a pseudonym", ps.ID(late.ID), ps.ID(f.users[0].ID))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// As many snapshots as the read pool has connections, each then
	// asking for pseudonyms. The deadline only ends a wait that would
	// otherwise never end.
	ctx, cancel := context.WithTimeout(f.ctx, 20*time.Second)
	defer cancel()
	n := max(4, runtime.NumCPU()*2) // the read pool's size (Open)
	var open, done sync.WaitGroup
	open.Add(n)
	errs := make([]error, n)
	for i := range n {
		done.Go(func() {
			errs[i] = f.s.Snapshot(ctx, func(ctx context.Context) error {
				open.Done()
				open.Wait() // every snapshot holds its connection now
				_, err := f.s.Pseudonyms(ctx, f.p.ID)
				return err
			})
		})
	}
	done.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("page %d of %d holding a read connection: %v", i+1, n, err)
		}
	}
}
