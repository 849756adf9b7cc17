package tasks

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"
)

// acceptedState accepts the majorities of every round of project "big"
// of a labelScanStore, in batches of about batch sentences, and returns
// how many it accepted and what it left.
func acceptedState(t *testing.T, batch int) (int, map[string][]string, bool) {
	t.Helper()
	s, p := majorityStore(t, batch)
	ctx := context.Background()
	lead, err := s.CreateUser(ctx, "lead", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	var before int64
	if err := s.read.QueryRowContext(ctx, `SELECT coalesce((SELECT version FROM report_versions WHERE project_id = ?), 0)`, p.ID).Scan(&before); err != nil {
		t.Fatal(err)
	}
	rounds, err := s.Rounds(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rounds {
		k, err := s.AcceptMajority(ctx, p.ID, r.ID, lead.ID)
		if err != nil {
			t.Fatal(err)
		}
		n += k
	}
	var after int64
	if err := s.read.QueryRowContext(ctx, `SELECT coalesce((SELECT version FROM report_versions WHERE project_id = ?), 0)`, p.ID).Scan(&after); err != nil {
		t.Fatal(err)
	}
	tables := dumpRows(t, s.read, map[string]string{
		"gold_sentences":     `SELECT sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, provenance, decided_by, version FROM gold_sentences ORDER BY 1`,
		"gold_history":       `SELECT sentence_id, decided_by, count(*) FROM gold_history GROUP BY 1, 2 ORDER BY 1, 2`,
		"gold_summaries":     `SELECT summary_id, label, provenance FROM gold_summaries ORDER BY 1`,
		"gold_tallies_stale": `SELECT sentence_id FROM gold_tallies_stale ORDER BY 1`,
		"project_gold":       `SELECT project_id, gold FROM project_gold ORDER BY 1`,
		"queue_blocks":       `SELECT user_id, round_id, block, total, done FROM queue_blocks ORDER BY 1, 2, 3`,
	})
	return n, tables, after > before
}

// majorityStore is a labelScanStore, with its project "big", whose
// AcceptMajority decides in batches of about batch sentences.
func majorityStore(t *testing.T, batch int) (*Store, *domain.Project) {
	t.Helper()
	return bigStoreWith(t, &majorityBatch, batch)
}

// TestAcceptMajorityInBatches: accepting majorities a summary at a time
// leaves the gold, its history, the summaries' gold, the gold index's
// stale marks and the kept counts exactly as in one transaction, and
// bumps the report's version.
func TestAcceptMajorityInBatches(t *testing.T) {
	n, whole, bumped := acceptedState(t, 1<<30)
	m, batched, batchedBumped := acceptedState(t, 1)
	if n == 0 || n != m {
		t.Fatalf("accepted %d and %d majorities", n, m)
	}
	for name, want := range whole {
		if got := batched[name]; !slices.Equal(got, want) {
			t.Fatalf("%s in batches:\n%s\nin one transaction:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if !bumped || !batchedBumped {
		t.Fatalf("report version bumped: %v in one transaction, %v in batches", bumped, batchedBumped)
	}
}

// TestAcceptMajorityLeavesTheWriterBetweenBatches: after each batch the
// writer is free, and a batch decides only what is still pending when it
// runs: a sentence a lead adjudicates after the list was read keeps the
// lead's gold.
func TestAcceptMajorityLeavesTheWriterBetweenBatches(t *testing.T) {
	s, p := majorityStore(t, 1)
	ctx := context.Background()
	lead, err := s.CreateUser(ctx, "lead", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	// The round with the most sentences whose majority is to accept.
	rounds, err := s.Rounds(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var r *domain.Round
	var ready []domain.PendingSentence
	for _, rd := range rounds {
		cands, err := majorityCandidates(ctx, s.read, p.ID, rd.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, c := range cands {
			ids = append(ids, c.sentence)
		}
		pending, err := pendingByID(ctx, s.read, ids)
		if err != nil {
			t.Fatal(err)
		}
		pending = slices.DeleteFunc(pending, func(p domain.PendingSentence) bool { return !p.InRound(rd.ID) || !p.MajorityReady() })
		if len(pending) > len(ready) {
			r, ready = &rd, pending
		}
	}
	if len(ready) < 3 {
		t.Fatalf("%d sentences with a majority to accept; the test needs 3", len(ready))
	}
	last := ready[len(ready)-1] // decided by the lead after the first batch
	majority, _ := last.Tally.Majority()
	decision := domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful, ErrorTypes: []string{}}, Note: "decided by hand"}
	if majority.Label == domain.LabelFaithful {
		decision.Label, decision.ErrorTypes = domain.LabelUnfaithful, []string{"contradiction"}
	}
	batches := 0
	majorityBatchDone = func(int) {
		batches++
		if batches != 1 {
			return
		}
		// The writer is free: this would wait for it forever otherwise.
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if _, err := s.SetGold(wctx, p.ID, last.SentenceID, lead.ID, -1, decision); err != nil {
			t.Errorf("deciding between batches: %v", err)
		}
	}
	t.Cleanup(func() { majorityBatchDone = nil })
	n, err := s.AcceptMajority(ctx, p.ID, r.ID, lead.ID)
	if err != nil {
		t.Fatal(err)
	}
	if batches < 2 {
		t.Fatalf("%d batches", batches)
	}
	if n != len(ready)-1 {
		t.Fatalf("accepted %d majorities, want %d (all but the one decided by hand)", n, len(ready)-1)
	}
	g, err := s.SummaryGold(ctx, last.SummaryID)
	if err != nil {
		t.Fatal(err)
	}
	if got := g[last.SentenceID]; got.Provenance != domain.ProvAdjudicated || got.Label != decision.Label {
		t.Fatalf("the sentence decided by hand has %s gold %q", got.Provenance, got.Label)
	}
}

// TestAcceptMajorityStoppedKeepsItsBatches: a request stopped after a
// batch keeps the decisions made so far, says how many, and accepting
// again decides the rest.
func TestAcceptMajorityStoppedKeepsItsBatches(t *testing.T) {
	n, _, _ := acceptedState(t, 1<<30) // how many one transaction accepts
	s, p := majorityStore(t, 1)
	lead, err := s.CreateUser(context.Background(), "lead", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := s.Rounds(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	majorities := func() int {
		var k int
		if err := s.read.QueryRowContext(context.Background(), `SELECT count(*) FROM gold_sentences WHERE provenance = 'majority'`).Scan(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	before := majorities() // the fixture writes some majority gold itself
	ctx, cancel := context.WithCancel(context.Background())
	majorityBatchDone = func(decided int) {
		if decided > 0 { // the first batch that decided something
			cancel()
		}
	}
	t.Cleanup(func() { majorityBatchDone = nil })
	stopped := 0
	for _, r := range rounds {
		k, err := s.AcceptMajority(ctx, p.ID, r.ID, lead.ID)
		if k > 0 {
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("stopped after a batch: %d decided, err %v", k, err)
			}
			if got := majorities() - before; got != k {
				t.Fatalf("said %d decided, %d majority gold written", k, got)
			}
			stopped = k
			break
		}
	}
	if stopped == 0 {
		t.Fatal("no round had a batch to stop after")
	}
	majorityBatchDone = nil
	for _, r := range rounds {
		if _, err := s.AcceptMajority(context.Background(), p.ID, r.ID, lead.ID); err != nil {
			t.Fatal(err)
		}
	}
	if got := majorities() - before; got != n {
		t.Fatalf("%d majority gold after accepting again, want %d as in one go", got, n)
	}
}
