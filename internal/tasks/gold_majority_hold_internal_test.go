package tasks

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// acceptedState accepts the majorities of every round of project "big"
// of a labelScanStore, with the counters' triggers held from hold
// decisions on, and returns how many it accepted and what it left.
func acceptedState(t *testing.T, hold int) (int, map[string][]string, bool) {
	t.Helper()
	s, p := holdStore(t, hold)
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

// TestAcceptManyMajoritiesHoldsTriggers: accepting majorities with the
// counters' triggers held (as holdTriggersFrom decisions or more are)
// leaves the gold, its history, the summaries' gold, the gold index's
// stale marks and the kept counts exactly as with the triggers, and bumps
// the report's version.
func TestAcceptManyMajoritiesHoldsTriggers(t *testing.T) {
	n, triggers, bumped := acceptedState(t, 1<<30)
	m, held, heldBumped := acceptedState(t, 0)
	if n == 0 || n != m {
		t.Fatalf("accepted %d and %d majorities", n, m)
	}
	for name, want := range triggers {
		if got := held[name]; !slices.Equal(got, want) {
			t.Fatalf("%s with the triggers held:\n%s\nwith the triggers:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if !bumped || !heldBumped {
		t.Fatalf("report version bumped: %v with the triggers, %v held", bumped, heldBumped)
	}
}
