package tasks

import (
	"context"
	"testing"
)

// TestGoldIndexRefreshInSmallTransactions: a refresh of many stale
// sentences rewrites them in transactions of at most 128 sentences, so
// that a save waiting for the writer meanwhile waits for one of them
// (about 6 ms), not for hundreds of sentences (see goldIndexBatch). Both
// ways of refreshing count: the paced one a server runs at start and the
// one before a lead's page reads the index.
func TestGoldIndexRefreshInSmallTransactions(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	if err := s.refreshGoldIndex(ctx, false); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	goldIndexWritten = func(n int) { sizes = append(sizes, n) }
	t.Cleanup(func() { goldIndexWritten = nil })
	for _, paced := range []bool{true, false} {
		res, err := s.write.ExecContext(ctx, `INSERT OR IGNORE INTO gold_tallies_stale (sentence_id) SELECT sentence_id FROM gold_sentences`)
		if err != nil {
			t.Fatal(err)
		}
		stale, err := res.RowsAffected()
		if err != nil {
			t.Fatal(err)
		}
		if stale <= 128 {
			t.Fatalf("the fixture marks %d sentences stale, too few for this test", stale)
		}
		sizes = nil
		if err := s.refreshGoldIndex(ctx, paced); err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, n := range sizes {
			if n > 128 {
				t.Fatalf("paced %v: one transaction rewrote %d sentences (all: %v)", paced, n, sizes)
			}
			total += n
		}
		if int64(total) != stale {
			t.Fatalf("paced %v: rewrote %d sentences of %d stale (%v)", paced, total, stale, sizes)
		}
		if n, err := staleRows(ctx, s.read); err != nil || n != 0 {
			t.Fatalf("paced %v: %d rows stale after the refresh (%v)", paced, n, err)
		}
	}
}

// staleRows counts the rows of every project's gold index that wait to be
// rewritten.
func staleRows(ctx context.Context, q querier) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM gold_tallies_stale`).Scan(&n)
	return n, err
}
