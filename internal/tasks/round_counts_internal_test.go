package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"annotate/internal/domain"
)

// roundCountsDirect counts every round's assignments by annotator, as
// round_counts keeps them, straight from assignments: round, user, the
// four counts, the active seconds and the latest submission.
const roundCountsDirect = `SELECT round_id, user_id, sum(status = 'submitted') AS submitted, sum(status = 'in_progress') AS in_progress,
	sum(status = 'pending') AS pending,
	sum(status = 'released') AS released, sum(active_seconds) AS active_seconds, max(coalesce(submitted_at, '')) AS last_submit
	FROM assignments GROUP BY 1, 2 ORDER BY 1, 2`

// roundCountsKept is round_counts as roundCountsDirect lists it.
const roundCountsKept = `SELECT round_id, user_id, submitted, in_progress, pending, released, active_seconds, last_submit FROM round_counts
	WHERE submitted + in_progress + pending + released > 0 ORDER BY 1, 2`

// TestRoundCountsFollowAssignments: round_counts, which the round page
// reads, agrees with the assignments counted directly after an import of
// labels (which holds its triggers and counts again), a round dealt,
// hundreds of random changes of status, active time, submission time,
// annotator and round, and deletions, directly in SQL, a round deleted
// with its assignments, and the migration that brings it in. last_submit
// keeps a submission's time once it is undone; otherwise it is the latest
// submission. Each time, the round page's medians (RoundPace) match the
// median of each annotator's submitted seconds.
func TestRoundCountsFollowAssignments(t *testing.T) {
	ctx := context.Background()
	s := labelScanStore(t, 3)
	undone := false
	check := func(what string) {
		t.Helper()
		want := dumpRows(t, s.read, map[string]string{"c": roundCountsDirect})["c"]
		got := dumpRows(t, s.read, map[string]string{"c": roundCountsKept})["c"]
		if len(want) == 0 {
			t.Fatalf("after %s: no assignments", what)
		}
		if !undone && !slices.Equal(got, want) {
			t.Fatalf("after %s: round_counts\n%v\nwant\n%v", what, got, want)
		}
		// With submissions undone, the counts still agree and last_submit
		// is at least the latest submission left.
		counts := `SELECT round_id, user_id, submitted, in_progress, pending, released, active_seconds FROM (%s)`
		strip := func(q string) []string {
			return dumpRows(t, s.read, map[string]string{"c": fmt.Sprintf(counts, q)})["c"]
		}
		if g, w := strip(roundCountsKept), strip(roundCountsDirect); !slices.Equal(g, w) {
			t.Fatalf("after %s: round_counts\n%v\nwant\n%v", what, g, w)
		}
		var behind int
		if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM (`+roundCountsDirect+`) d
			LEFT JOIN round_counts c ON c.round_id = d.round_id AND c.user_id = d.user_id
			WHERE c.last_submit IS NULL OR c.last_submit < d.last_submit`).Scan(&behind); err != nil {
			t.Fatal(err)
		}
		if behind > 0 {
			t.Fatalf("after %s: %d annotators' last submission behind their assignments'", what, behind)
		}
		// Each annotator's median seconds on the round page against the
		// median of their submitted assignments' seconds.
		seconds := map[[2]int64][]int{}
		err := queryRows(ctx, s.read, `SELECT round_id, user_id, active_seconds FROM assignments WHERE status = 'submitted'`, func(rows *sql.Rows) error {
			var k [2]int64
			var secs int
			err := rows.Scan(&k[0], &k[1], &secs)
			seconds[k] = append(seconds[k], secs)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		rounds, err := IDList(ctx, s.read, `SELECT id FROM rounds`)
		if err != nil {
			t.Fatal(err)
		}
		medians := 0
		for _, r := range rounds {
			paces, err := s.RoundPace(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range paces {
				xs := seconds[[2]int64{r, p.UserID}]
				want := 0
				if len(xs) > 0 {
					slices.Sort(xs)
					want = (xs[(len(xs)-1)/2] + xs[len(xs)/2]) / 2
					medians++
				}
				if p.Submitted != len(xs) || p.MedianSeconds != want {
					t.Fatalf("after %s: round %d, %s: %d submitted, median %d s; want %d, %d s (%v)", what, r, p.Username, p.Submitted, p.MedianSeconds, len(xs), want, xs)
				}
			}
		}
		if medians == 0 {
			t.Fatalf("after %s: no annotator with a submission", what)
		}
	}
	check("an import of labels")

	p, err := s.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	annotators := addAnnotators(t, s, p.ID, "counted", 3)
	sums, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "counted", Kind: domain.RoundProduction, PerItem: 2, Annotators: annotators, Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	check("a round dealt")

	raw, err := sql.Open(driverName, "file:"+s.Path()+"?_pragma=foreign_keys(ON)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.SetMaxOpenConns(1)
	ids, err := IDList(ctx, raw, `SELECT id FROM assignments ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := IDList(ctx, raw, `SELECT id FROM rounds ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	users := append(slices.Clone(annotators), p.ID) // p.ID: some user id the rounds may lack
	rng := rand.New(rand.NewPCG(5, 8))
	statuses := []string{domain.StatusPending, domain.StatusInProgress, domain.StatusSubmitted, domain.StatusReleased}
	for step := range 400 {
		id := ids[rng.IntN(len(ids))]
		var q string
		var args []any
		switch rng.IntN(6) {
		case 0:
			q, args = `UPDATE assignments SET status = ? WHERE id = ?`, []any{statuses[rng.IntN(len(statuses))], id}
		case 1:
			q, args = `UPDATE assignments SET active_seconds = active_seconds + ? WHERE id = ?`, []any{rng.IntN(300), id}
		case 2:
			q, args = `UPDATE assignments SET status = 'submitted', submitted_at = ? WHERE id = ?`, []any{fmt.Sprintf("2026-11-%02dT10:%02d:00Z", 1+rng.IntN(28), rng.IntN(60)), id}
		case 3:
			// Undone, as a re-import does: pending again, no submission.
			q, args = `UPDATE assignments SET status = 'pending', submitted_at = NULL WHERE id = ?`, []any{id}
			undone = true
		case 4:
			q, args = `UPDATE OR IGNORE assignments SET user_id = ?, round_id = ? WHERE id = ?`, []any{users[rng.IntN(len(users))], rounds[rng.IntN(len(rounds))], id}
		case 5:
			q, args = `DELETE FROM assignments WHERE id = ?`, []any{id}
		}
		if _, err := raw.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("step %d: %s: %v", step, q, err)
		}
		if step%50 == 49 {
			check(fmt.Sprint(step+1, " random changes"))
		}
	}
	if _, err := raw.ExecContext(ctx, `DELETE FROM rounds WHERE id = ?`, r.ID); err != nil {
		t.Fatal(err)
	}
	check("a round deleted")

	// A database from before the counts: the migration fills them.
	for _, q := range []string{`DROP TRIGGER round_counts_insert`, `DROP TRIGGER round_counts_delete`, `DROP TRIGGER round_counts_update`,
		`DROP TABLE round_counts`, `PRAGMA user_version = 41`} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if s, err = Open(ctx, s.Path()); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	undone = false // the migration counts the assignments as they are
	check("the migration")
}
