package tasks

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// dealtState is what dealing a round changes beside the assignments: the
// queues' blocks, the gold index rows marked stale, the project's counts,
// and the counters that tell readers something changed.
type dealtState struct {
	tables                 map[string][]string
	reportBefore, report   int64
	membersBefore, members int64
	// others and othersBefore are the other rounds' membership versions.
	others, othersBefore    string
	kicked                  bool
	assignments, staleMarks int
}

// dealRound deals a production round of every summary of project "big"
// of a labelScanStore to two of three new annotators, with the counters'
// triggers held from hold assignments on, and returns what it changed.
func dealRound(t *testing.T, hold int) dealtState {
	t.Helper()
	s, p := holdStore(t, hold)
	ctx := context.Background()
	annotators := addAnnotators(t, s, p.ID, "dealt", 3)
	if err := s.refreshGoldIndex(ctx, false); err != nil {
		t.Fatal(err)
	}
	sums, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st dealtState
	counters := func() (report, members int64) {
		if err := s.read.QueryRowContext(ctx, `SELECT coalesce((SELECT version FROM report_versions WHERE project_id = ?1), 0),
			coalesce((SELECT sum(version) FROM membership_rounds m JOIN rounds r ON r.id = m.round_id WHERE r.project_id = ?1), 0)`, p.ID).Scan(&report, &members); err != nil {
			t.Fatal(err)
		}
		return report, members
	}
	st.reportBefore, st.membersBefore = counters()
	othersOf := func() string {
		rows := dumpRows(t, s.read, map[string]string{"m": `SELECT m.round_id, m.version FROM membership_rounds m JOIN rounds r ON r.id = m.round_id
			WHERE r.name != 'dealt' ORDER BY 1`})
		return strings.Join(rows["m"], ";")
	}
	st.othersBefore = othersOf()
	drainGoldKick(s)
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "dealt", Kind: domain.RoundProduction, PerItem: 2, Annotators: annotators, Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	st.kicked = len(s.goldKick) == 1
	st.report, st.members = counters()
	st.others = othersOf()
	st.tables = dumpRows(t, s.read, map[string]string{
		"queue_blocks":       `SELECT user_id, round_id, block, total, done FROM queue_blocks ORDER BY 1, 2, 3`,
		"gold_tallies_stale": `SELECT sentence_id FROM gold_tallies_stale ORDER BY 1`,
		"project_counts":     `SELECT * FROM project_counts ORDER BY 1`,
		"membership_rounds":  `SELECT round_id FROM membership_rounds ORDER BY 1`,
		"round_counts":       `SELECT round_id, user_id, submitted, in_progress, pending, released, active_seconds FROM round_counts ORDER BY 1, 2`,
	})
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM assignments WHERE round_id = ?`, r.ID).Scan(&st.assignments); err != nil {
		t.Fatal(err)
	}
	st.staleMarks = len(st.tables["gold_tallies_stale"])
	return st
}

// holdStore is a labelScanStore whose writes hold the counters' triggers
// from hold rows on (holdTriggersFrom, restored after the test), with its
// project "big".
func holdStore(t *testing.T, hold int) (*Store, *domain.Project) {
	t.Helper()
	return bigStoreWith(t, &holdTriggersFrom, hold)
}

// dumpRows runs each named query and returns its rows as text, for
// comparing what two ways of writing leave.
func dumpRows(t *testing.T, q querier, queries map[string]string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for name, query := range queries {
		rows, err := q.QueryContext(context.Background(), query)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out[name] = append(out[name], fmt.Sprint(vals...))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return out
}

// TestLargeRoundHoldsTriggers: a round dealt with the counters' triggers
// held (as a round of holdTriggersFrom assignments or more is) leaves the
// queues' blocks, the gold index rows marked stale and the project's
// counts exactly as the triggers leave them, bumps the report and
// membership counters (the new round's alone, as the triggers do), and
// wakes the gold index's keeper.
func TestLargeRoundHoldsTriggers(t *testing.T) {
	triggers := dealRound(t, 1<<30)
	held := dealRound(t, 0)
	if triggers.assignments == 0 || triggers.assignments != held.assignments {
		t.Fatalf("dealt %d and %d assignments", triggers.assignments, held.assignments)
	}
	if triggers.staleMarks == 0 {
		t.Fatal("the round marked no gold index row stale: the fixture has no gold on its summaries")
	}
	for name, want := range triggers.tables {
		if got := held.tables[name]; !slices.Equal(got, want) {
			t.Fatalf("%s with the triggers held:\n%s\nwith the triggers:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for _, st := range []struct {
		name string
		d    dealtState
	}{{"triggers", triggers}, {"held", held}} {
		if st.d.report <= st.d.reportBefore || st.d.members <= st.d.membersBefore {
			t.Fatalf("%s: report version %d → %d, membership versions %d → %d: not bumped", st.name,
				st.d.reportBefore, st.d.report, st.d.membersBefore, st.d.members)
		}
		// The other rounds' membership is unchanged, so is their counter:
		// bumping it would only make their views count again.
		if st.d.others != st.d.othersBefore || st.d.others == "" {
			t.Errorf("%s: the other rounds' membership versions went from %q to %q", st.name, st.d.othersBefore, st.d.others)
		}
	}
	if !held.kicked {
		t.Fatal("a large round did not wake the gold index's keeper")
	}
}

// addAnnotators makes n accounts named prefix0, prefix1, … and makes
// them annotators of the project, returning their ids.
func addAnnotators(t *testing.T, s *Store, projectID int64, prefix string, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := range n {
		u, err := s.CreateUser(context.Background(), fmt.Sprint(prefix, i), "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetMember(context.Background(), projectID, u.ID, domain.RoleAnnotator); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	return ids
}
