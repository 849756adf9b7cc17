package tasks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"
)

// resolveStore is a labelScanStore whose project "big" has no gold, and
// whose ResolveRound resolves batch summaries per transaction; it returns
// the round with the most ready summaries and those summaries.
func resolveStore(t *testing.T, batch int) (*Store, int64, int64, []int64) {
	t.Helper()
	s, p := bigStoreWith(t, &roundResolveBatch, batch)
	ctx := context.Background()
	if err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM gold_sentences WHERE sentence_id IN (SELECT ss.id FROM summary_sentences ss
			JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?)`, p.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	rounds, err := s.Rounds(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var round int64
	var ready []int64
	for _, r := range rounds {
		ids, err := IDList(ctx, s.read, fmt.Sprintf(readySummaries, "a.round_id = ?")+` ORDER BY a.summary_id`, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) > len(ready) {
			round, ready = r.ID, ids
		}
	}
	if len(ready) < 3 {
		t.Fatalf("%d ready summaries; the test needs 3", len(ready))
	}
	return s, p.ID, round, ready
}

// resolvedState resolves the round of a resolveStore in batches of batch
// summaries and returns the stats and the gold it left.
func resolvedState(t *testing.T, batch int) (domain.ResolveStats, map[string][]string) {
	t.Helper()
	s, project, round, _ := resolveStore(t, batch)
	st, err := s.ResolveRound(context.Background(), project, round)
	if err != nil {
		t.Fatal(err)
	}
	return st, dumpRows(t, s.read, map[string]string{
		"gold_sentences":     `SELECT sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, provenance, decided_by, version FROM gold_sentences ORDER BY 1`,
		"gold_history":       `SELECT sentence_id, json_remove(data, '$.decided_at'), count(*) FROM gold_history GROUP BY 1, 2 ORDER BY 1, 2`,
		"gold_summaries":     `SELECT summary_id, label, provenance FROM gold_summaries ORDER BY 1`,
		"gold_tallies_stale": `SELECT sentence_id FROM gold_tallies_stale ORDER BY 1`,
		"project_gold":       `SELECT project_id, gold FROM project_gold ORDER BY 1`,
	})
}

// TestResolveRoundInBatches: resolving a round a summary at a time leaves
// the same gold as in one transaction.
func TestResolveRoundInBatches(t *testing.T) {
	st, whole := resolvedState(t, 1<<30)
	bst, batched := resolvedState(t, 1)
	if st != bst || st.Unanimous+st.Pending == 0 {
		t.Fatalf("stats %+v in one transaction, %+v in batches", st, bst)
	}
	for name, want := range whole {
		if got := batched[name]; !slices.Equal(got, want) {
			t.Fatalf("%s in batches:\n%s\nin one transaction:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestResolveRoundLeavesTheWriterBetweenBatches: after each batch the
// writer is free, and a batch resolves only the summaries still ready: one
// whose assignment went back to its annotator after the list was read
// keeps no gold.
func TestResolveRoundLeavesTheWriterBetweenBatches(t *testing.T) {
	s, project, round, ready := resolveStore(t, 1)
	ctx := context.Background()
	last := ready[len(ready)-1]
	batches := 0
	resolveBatchDone = func() {
		batches++
		if batches != 1 {
			return
		}
		// The writer is free: this would wait for it forever otherwise.
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := s.tx(wctx, func(tx *sql.Tx) error {
			return mustAffect(tx.ExecContext(wctx, `UPDATE assignments SET status = 'in_progress', version = version + 1
				WHERE id = (SELECT id FROM assignments WHERE round_id = ? AND summary_id = ? AND status = 'submitted' LIMIT 1)`, round, last))
		}); err != nil {
			t.Errorf("reopening an assignment between batches: %v", err)
		}
	}
	t.Cleanup(func() { resolveBatchDone = nil })
	st, err := s.ResolveRound(ctx, project, round)
	if err != nil {
		t.Fatal(err)
	}
	if batches < 2 {
		t.Fatalf("%d batches", batches)
	}
	if st.Summaries != len(ready)-1 {
		t.Fatalf("resolved %d summaries, want %d (all but the one reopened)", st.Summaries, len(ready)-1)
	}
	gold, err := s.SummaryGold(ctx, last)
	if err != nil {
		t.Fatal(err)
	}
	if len(gold) != 0 {
		t.Fatalf("the summary reopened between batches got gold: %v", gold)
	}
}

// TestResolveRoundStoppedKeepsItsBatches: a request stopped after the
// first batch keeps that batch's gold and counts it, and resolving again
// leaves what one transaction would.
func TestResolveRoundStoppedKeepsItsBatches(t *testing.T) {
	_, whole := resolvedState(t, 1<<30)
	s, project, round, ready := resolveStore(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	resolveBatchDone = cancel
	t.Cleanup(func() { resolveBatchDone = nil })
	st, err := s.ResolveRound(ctx, project, round)
	if !errors.Is(err, context.Canceled) || st.Summaries != 1 {
		t.Fatalf("stopped after the first batch: %+v, %v", st, err)
	}
	if g, err := s.SummaryGold(context.Background(), ready[0]); err != nil || len(g) == 0 {
		t.Fatalf("the first batch's summary has gold %v (%v)", g, err)
	}
	resolveBatchDone = nil
	if _, err := s.ResolveRound(context.Background(), project, round); err != nil {
		t.Fatal(err)
	}
	got := dumpRows(t, s.read, map[string]string{
		"gold_sentences": `SELECT sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, provenance, decided_by, version FROM gold_sentences ORDER BY 1`,
	})
	if !slices.Equal(got["gold_sentences"], whole["gold_sentences"]) {
		t.Fatalf("gold after resolving again:\n%s\nin one go:\n%s", strings.Join(got["gold_sentences"], "\n"), strings.Join(whole["gold_sentences"], "\n"))
	}
}
