package tasks

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit/sqlplan"
)

// TestQueueEntriesPageAsTheQueue: every page of an annotator's queue, at
// any offset, is that slice of the whole queue in queue order, with two
// rounds in the project, released assignments left out and another
// project's work apart; and the page's assignments are found through the
// queue's index alone, without sorting the queue.
func TestQueueEntriesPageAsTheQueue(t *testing.T) {
	s := labelScanStore(t, 2)
	ctx := context.Background()
	var users []int64
	for _, slug := range []string{"big", "small"} {
		p, err := s.ProjectBySlug(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		if users == nil {
			for i := range 2 {
				u, err := s.CreateUser(ctx, fmt.Sprint("queued", i), "", "a long enough password", false)
				if err != nil {
					t.Fatal(err)
				}
				users = append(users, u.ID)
			}
		}
		for _, u := range users {
			if err := s.SetMember(ctx, p.ID, u, domain.RoleAnnotator); err != nil {
				t.Fatal(err)
			}
		}
		sums, err := s.SummaryIDs(ctx, p.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"one", "two"} {
			r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: name, Kind: domain.RoundProduction, PerItem: 1, Annotators: users, Summaries: sums})
			if err != nil {
				t.Fatal(err)
			}
			ids, err := IDList(ctx, s.read, `SELECT id FROM assignments WHERE round_id = ? ORDER BY id`, r.ID)
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range ids {
				if i%5 == 0 {
					if err := s.ReleaseAssignment(ctx, r.ID, id); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	p, _ := s.ProjectBySlug(ctx, "big")
	for _, u := range users {
		all, err := s.QueueEntries(ctx, p.ID, u)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) < 20 {
			t.Fatalf("user %d has %d entries, too few for this test", u, len(all))
		}
		for _, size := range []int{1, 7, 50} {
			for off := 0; off <= len(all); off += size {
				page, err := s.QueueEntriesPage(ctx, p.ID, u, off, size)
				if err != nil {
					t.Fatal(err)
				}
				want := all[off:min(off+size, len(all))]
				if len(page) != len(want) {
					t.Fatalf("user %d, offset %d, size %d: %d entries, want %d", u, off, size, len(page), len(want))
				}
				for i := range want {
					if page[i] != want[i] {
						t.Fatalf("user %d, offset %d, size %d, entry %d: %+v, want %+v", u, off, size, i, page[i], want[i])
					}
				}
			}
		}
	}
	// With the statistics of a round of 300,000 assignments (those of
	// the 1.5M-label project), which made the planner read the whole
	// queue through the index by round and sort it.
	conn := statsConn(t, s, "assignments", map[string]string{"assignments_round_user": "300000 401 401 401 401 5",
		"assignments_queue": "300000 401 1 1 1", "assignments_summary": "300000 3", "assignments_user": "300000 401 401",
		"sqlite_autoindex_assignments_1": "300000 401 3 1", "assignments_open": "300000 401 1"})
	plan := strings.Join(sqlplan.Of(t, conn, queuePageIDs, users[0], p.ID, 10, 0), "\n")
	if !strings.Contains(plan, "SEARCH a USING COVERING INDEX assignments_queue (user_id=?)") || strings.Contains(plan, "USE TEMP B-TREE FOR ORDER BY") {
		t.Fatalf("plan of a queue page's ids:\n%s", plan)
	}
}
