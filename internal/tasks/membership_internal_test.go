package tasks

import (
	"context"
	"reflect"
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
	s := labelScanStore(t, 1)
	ctx := context.Background()
	p, err := s.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RefreshGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	// Each view holds a read connection while it waits, so there are as
	// many views as the pool has connections.
	views := s.read.Stats().MaxOpenConnections
	joins := make(chan struct{}, views)
	s.members.mu.Lock()
	s.members.joined = func() { joins <- struct{}{} }
	s.members.mu.Unlock()
	var reads atomic.Int32
	waited := 0
	membersRead = func() {
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
