package tasks

import (
	"context"
	"testing"
	"time"

	"annotate/internal/domain"
)

// markGoldStale marks the gold index rows of at most limit sentences with
// gold (all, for limit 0) as waiting to be rewritten, and returns how many
// rows wait.
func markGoldStale(t *testing.T, s *Store, limit int) int64 {
	t.Helper()
	ctx := context.Background()
	q := `INSERT OR IGNORE INTO gold_tallies_stale (sentence_id) SELECT sentence_id FROM gold_sentences ORDER BY sentence_id`
	args := []any{}
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	if _, err := s.write.ExecContext(ctx, q, args...); err != nil {
		t.Fatal(err)
	}
	n, err := staleRows(ctx, s.read)
	if err != nil {
		t.Fatal(err)
	}
	return int64(n)
}

// drainGoldKick takes back a wake-up of the keeper already sent (the
// fixture's imports send one).
func drainGoldKick(s *Store) {
	select {
	case <-s.goldKick:
	default:
	}
}

// setFreshBacklog sets freshBacklog for a test and restores it after.
func setFreshBacklog(t *testing.T, n int64) {
	old := freshBacklog.Swap(n)
	t.Cleanup(func() { freshBacklog.Store(old) })
}

// TestFreshSnapshotLeavesALargeBacklog: a page's snapshot brings a small
// backlog of the gold index up to date before it reads, but reads the
// index as it is, at once, when more rows wait than freshBacklog (after a
// large import), and wakes the keeper that catches up on them.
func TestFreshSnapshotLeavesALargeBacklog(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	if err := s.refreshGoldIndex(ctx, false); err != nil {
		t.Fatal(err)
	}
	setFreshBacklog(t, 20)
	drainGoldKick(s)
	behind := func() int {
		var n int
		err := s.FreshSnapshot(ctx, func(ctx context.Context) (err error) {
			n, err = staleRows(ctx, s.reader(ctx))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	if n := markGoldStale(t, s, 20); n != 20 {
		t.Fatalf("%d rows stale, want 20", n)
	}
	if n := behind(); n != 0 {
		t.Fatalf("a backlog of 20 (the most a page catches up on): %d rows still behind in the snapshot", n)
	}
	if len(s.goldKick) != 0 {
		t.Fatal("a backlog the page caught up on woke the keeper")
	}

	stale := markGoldStale(t, s, 0)
	if stale <= 20 {
		t.Fatalf("the fixture marks %d sentences stale, too few for this test", stale)
	}
	if n := behind(); int64(n) != stale {
		t.Fatalf("a backlog of %d: %d rows behind in the snapshot, want all (read as it is)", stale, n)
	}
	if n, err := staleRows(ctx, s.read); err != nil || int64(n) != stale {
		t.Fatalf("%d rows stale after the page (%v), want the %d it left", n, err, stale)
	}
	if len(s.goldKick) != 1 {
		t.Fatal("a page that left a large backlog did not wake the keeper")
	}
}

// TestKeepGoldIndexCurrent: the keeper catches up at start, then leaves
// backlogs a page catches up on to the pages and rewrites larger ones
// when woken (by an import, or by a page that found one).
func TestKeepGoldIndexCurrent(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	setFreshBacklog(t, 20)

	// catchUpGoldIndex, the keeper's look: nothing at or under the
	// backlog a page handles, everything over it.
	if err := s.refreshGoldIndex(ctx, false); err != nil {
		t.Fatal(err)
	}
	markGoldStale(t, s, 20)
	if err := s.catchUpGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := staleRows(ctx, s.read); n != 20 {
		t.Fatalf("the keeper rewrote a backlog of 20, which the pages handle: %d left", n)
	}
	if stale := markGoldStale(t, s, 0); stale <= 20 {
		t.Fatalf("the fixture marks %d sentences stale, too few for this test", stale)
	}
	if err := s.catchUpGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := staleRows(ctx, s.read); n != 0 {
		t.Fatalf("%d rows stale after the keeper's look at a large backlog", n)
	}

	// The loop: every refresh ends with a transaction of fewer than
	// goldIndexBatch rows (see refreshGoldIndex), which ends a catch-up.
	done := make(chan int, 1024)
	goldIndexWritten = func(n int) {
		if n < goldIndexBatch {
			done <- n
		}
	}
	t.Cleanup(func() { goldIndexWritten = nil })
	markGoldStale(t, s, 0)
	drainGoldKick(s) // only the import below wakes the keeper
	kctx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s.KeepGoldIndexCurrent(kctx, time.Hour, func(err error) { t.Error(err) })
	}()
	t.Cleanup(func() { stop(); <-stopped })
	caughtUp := func(what string) {
		t.Helper()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the keeper did not catch up within 30 s", what)
		}
		if n, err := staleRows(ctx, s.read); err != nil || n != 0 {
			t.Fatalf("%s: %d rows stale after the keeper's catch-up (%v)", what, n, err)
		}
	}
	caughtUp("at start")

	// An import wakes it: it finds the large backlog marked meanwhile.
	proj, err := s.ProjectBySlug(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	markGoldStale(t, s, 0)
	if _, err := s.Import(ctx, proj.ID, []domain.DocumentInput{{ExternalID: "late", Sentences: []string{"Late news."},
		Summaries: []domain.SummaryInput{{ExternalID: "late-s", Sentences: []domain.SentenceInput{{Text: "Late news."}}}}}}); err != nil {
		t.Fatal(err)
	}
	caughtUp("after an import")
}
