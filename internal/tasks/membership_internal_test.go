package tasks

import (
	"context"
	"database/sql"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"annotate/internal/domain"
)

// TestRoundMembersReadOnceForConcurrentViews: views of the adjudication
// queue that find a project's round members missing at once wait for one
// read of them rather than each reading every assignment. The first read
// is held until every other view waits for it, so the test does not
// depend on timing; if the views do not share the read, the hold ends
// after ten seconds and the test fails.
func TestRoundMembersReadOnceForConcurrentViews(t *testing.T) {
	s, p := bigProjectIndexed(t, 1)
	ctx := context.Background()
	// Each view holds a read connection while it waits, so there are as
	// many views as the pool has connections.
	views := s.read.Stats().MaxOpenConnections
	joins := make(chan struct{}, views)
	s.members.mu.Lock()
	s.members.joined = func() { joins <- struct{}{} }
	s.members.mu.Unlock()
	var reads atomic.Int32
	waited := 0
	membersRead = func([]int64) {
		if reads.Add(1) > 1 {
			return
		}
		for waited < views-1 {
			select {
			case <-joins:
				waited++
			case <-time.After(10 * time.Second):
				return
			}
		}
	}
	t.Cleanup(func() { membersRead = nil })
	var wg sync.WaitGroup
	got := make([][]domain.RoundGold, views)
	errs := make([]error, views)
	for i := range views {
		wg.Go(func() { got[i], errs[i] = s.RoundGoldCounts(ctx, p.ID) })
	}
	wg.Wait()
	for i := range views {
		if errs[i] != nil {
			t.Fatalf("view %d: %v", i, errs[i])
		}
		if !reflect.DeepEqual(got[i], got[0]) || len(got[0]) == 0 {
			t.Fatalf("view %d saw %v, view 0 %v", i, got[i], got[0])
		}
	}
	if n := reads.Load(); n != 1 || waited != views-1 {
		t.Fatalf("%d reads of the members for %d views at once (%d waited for the first)", n, views, waited)
	}
	// Once read, the members are kept: another view reads nothing.
	if _, err := s.RoundGoldCounts(ctx, p.ID); err != nil || reads.Load() != 1 {
		t.Fatalf("a later view read the members again (%d reads, %v)", reads.Load(), err)
	}
}

// TestRoundMembersReadAgainOnlyWhereTheyChanged: the adjudication queue
// keeps each round's sentence count until that round's members change.
// Dealing a new round reads that round alone; removing a sentence reads
// again the rounds that give out its summary; a deleted round leaves no
// counter behind. After each change the counts are those of a reading
// with nothing kept.
func TestRoundMembersReadAgainOnlyWhereTheyChanged(t *testing.T) {
	s, p := bigProjectIndexed(t, 2)
	ctx := context.Background()
	var read [][]int64
	membersRead = func(rounds []int64) { read = append(read, slices.Sorted(slices.Values(rounds))) }
	t.Cleanup(func() { membersRead = nil })
	// view returns the counts and the rounds read for them, and checks
	// them against a reading with nothing kept.
	view := func(what string) ([]domain.RoundGold, []int64) {
		t.Helper()
		read = nil
		got, err := s.RoundGoldCounts(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		var rounds []int64
		for _, r := range read {
			rounds = append(rounds, r...)
		}
		slices.Sort(rounds)
		s.members.mu.Lock()
		kept := s.members.rounds
		s.members.rounds = nil
		s.members.mu.Unlock()
		want, err := s.RoundGoldCounts(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		s.members.mu.Lock()
		s.members.rounds = kept
		s.members.mu.Unlock()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: counts %+v, read afresh %+v", what, got, want)
		}
		return got, rounds
	}
	first, rounds := view("first view")
	if len(first) < 2 || len(rounds) != len(first) {
		t.Fatalf("the first view read rounds %v of %d", rounds, len(first))
	}
	if _, rounds := view("second view"); len(rounds) != 0 {
		t.Fatalf("a view with nothing changed read rounds %v", rounds)
	}

	// A new round: only it is read.
	annotators := addAnnotators(t, s, p.ID, "extra", 2)
	sums, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil || len(sums) < 4 || len(annotators) < 2 {
		t.Fatalf("summaries %v, annotators %v, %v", sums, annotators, err)
	}
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "extra", Kind: domain.RoundCalibration, Annotators: annotators[:2], Summaries: sums[:3]})
	if err != nil {
		t.Fatal(err)
	}
	after, rounds := view("after a new round")
	if !slices.Equal(rounds, []int64{r.ID}) || len(after) != len(first)+1 {
		t.Fatalf("after a new round, rounds %v were read (%d counts); want only %d", rounds, len(after), r.ID)
	}

	// A sentence removed, of a summary the new round does not give out:
	// the rounds that give out its summary.
	var sentence int64
	if err := s.read.QueryRowContext(ctx, `SELECT id FROM summary_sentences WHERE summary_id = ? ORDER BY idx DESC LIMIT 1`, sums[len(sums)-1]).Scan(&sentence); err != nil {
		t.Fatal(err)
	}
	var want []int64
	err = queryRows(ctx, s.read, `SELECT DISTINCT round_id FROM assignments WHERE summary_id = ? ORDER BY round_id`, func(rows *sql.Rows) error {
		want = append(want, 0)
		return rows.Scan(&want[len(want)-1])
	}, sums[len(sums)-1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `DELETE FROM summary_sentences WHERE id = ?`, sentence); err != nil {
		t.Fatal(err)
	}
	if _, rounds := view("after a sentence went"); !slices.Equal(rounds, want) || len(want) < 2 {
		t.Fatalf("after a sentence of summary %d went, rounds %v were read; want %v", sums[len(sums)-1], rounds, want)
	}

	// A deleted round takes its counter with it, its assignments' deletes
	// writing none back.
	if _, err := s.write.ExecContext(ctx, `DELETE FROM rounds WHERE id = ?`, r.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM membership_rounds WHERE round_id = ?`, r.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d counter rows of the deleted round (%v)", left, err)
	}
	if got, rounds := view("after the round went"); len(got) != len(first) || len(rounds) != 0 {
		t.Fatalf("after the round went: %d counts, rounds %v read", len(got), rounds)
	}
}

// TestWarmRoundMembers: after the server's warm-up read, the first view
// of every project's adjudication queue reads no round's members.
func TestWarmRoundMembers(t *testing.T) {
	s := labelScanStore(t, 3)
	ctx := context.Background()
	var reads int
	membersRead = func([]int64) { reads++ }
	t.Cleanup(func() { membersRead = nil })
	if err := s.WarmRoundMembers(ctx); err != nil {
		t.Fatal(err)
	}
	if reads == 0 {
		t.Fatal("the warm-up read no members")
	}
	reads = 0
	for _, slug := range []string{"big", "small"} {
		p, err := s.ProjectBySlug(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.RoundGoldCounts(ctx, p.ID)
		if err != nil || len(got) == 0 || got[0].Sentences == 0 {
			t.Fatalf("%s: %+v, %v", slug, got, err)
		}
	}
	if reads != 0 {
		t.Fatalf("the first views after the warm-up read members %d times", reads)
	}
}

// bigProjectIndexed is labelScanStore's project "big" with its gold index
// written, as the adjudication queue reads it.
func bigProjectIndexed(t *testing.T, seed uint64) (*Store, *domain.Project) {
	t.Helper()
	s := labelScanStore(t, seed)
	ctx := context.Background()
	p, err := s.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RefreshGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	return s, p
}
