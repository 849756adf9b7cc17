package tasks

import (
	"context"
	"sync/atomic"
	"time"

	"annotate/internal/domain"
)

// freshBacklog is the largest number of gold index rows waiting to be
// rewritten that a page brings up to date itself before it reads (see
// FreshSnapshot): about 0.2 s of rewriting at the 25,000 rows a second
// an idle 2-core machine manages. A larger backlog (after an import of
// labelled data, a round dealt over a large project, an upgrade) is left
// to KeepGoldIndexCurrent, and the page reads the index as it is, at
// once, and says how far behind it is. Waiting freshWait on such a
// backlog held each view of the adjudication queue 2.3 s after a
// 1.5M-label import and still left it behind.
var freshBacklog atomic.Int64

func init() { freshBacklog.Store(5000) }

// goldBacklog counts the gold index rows (of every project) waiting to
// be rewritten, up to limit+1: enough to tell whether there are more
// than limit, at a bounded cost.
func goldBacklog(ctx context.Context, q querier, limit int64) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM gold_tallies_stale LIMIT ?)`, limit+1).Scan(&n)
	return n, err
}

// kickGoldIndex wakes KeepGoldIndexCurrent, where it runs, to look at the
// backlog now rather than at its next tick. It never blocks.
func (s *Store) kickGoldIndex() {
	select {
	case s.goldKick <- struct{}{}:
	default:
	}
}

// KeepGoldIndexCurrent brings the gold index up to date beside other work
// (paced, as RefreshGoldIndex), then keeps it so until ctx ends: whenever
// more rows wait to be rewritten than a page brings up to date itself
// (see FreshSnapshot), it rewrites them, paced. It looks when an import
// into this store commits or a page found such a backlog, and every
// `every` in any case, for what other processes write (annotate import on
// the command line while the server runs). Smaller backlogs are left to
// the pages, which bring them up to date before they read. A failed
// refresh is given to warn, and tried again at the next look. It returns
// when ctx ends.
func (s *Store) KeepGoldIndexCurrent(ctx context.Context, every time.Duration, warn func(error)) {
	report := func(err error) {
		if err != nil && ctx.Err() == nil {
			warn(domain.Op("Store.KeepGoldIndexCurrent", err))
		}
	}
	report(s.refreshGoldIndex(ctx, true))
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.goldKick:
		case <-tick.C:
		}
		report(s.catchUpGoldIndex(ctx))
	}
}

// catchUpGoldIndex rewrites, paced, the gold index rows waiting to be
// rewritten when there are more than a page brings up to date itself
// (freshBacklog), and leaves fewer to the pages.
func (s *Store) catchUpGoldIndex(ctx context.Context) error {
	n, err := goldBacklog(ctx, s.read, freshBacklog.Load())
	if err != nil || n <= freshBacklog.Load() {
		return err
	}
	return s.refreshGoldIndex(ctx, true)
}
