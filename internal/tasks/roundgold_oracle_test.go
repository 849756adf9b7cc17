package tasks_test

import (
	"context"
	"database/sql"
	"testing"

	"annotate/internal/tasks"
)

// roundGoldByJoin is the straightforward form of tasks.RoundGoldCounts:
// every sentence of every summary given out in a round, joined with its
// gold. RoundGoldCounts must give the same counts.
func roundGoldByJoin(t *testing.T, ctx context.Context, path string, projectID int64) []tasks.RoundGold {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT r.id, count(ss.id),
			coalesce(sum(g.provenance = 'unanimous'), 0), coalesce(sum(g.provenance = 'majority'), 0),
			coalesce(sum(g.provenance = 'adjudicated'), 0), coalesce(sum(g.provenance = 'imported'), 0),
			coalesce(sum(g.provenance = 'unresolved'), 0), coalesce(sum(ss.id IS NOT NULL AND g.sentence_id IS NULL), 0)
		FROM rounds r
		LEFT JOIN (SELECT DISTINCT round_id, summary_id FROM assignments WHERE status != 'released') x ON x.round_id = r.id
		LEFT JOIN summary_sentences ss ON ss.summary_id = x.summary_id
		LEFT JOIN gold_sentences g ON g.sentence_id = ss.id
		WHERE r.project_id = ? GROUP BY r.id ORDER BY r.id`, projectID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []tasks.RoundGold
	for rows.Next() {
		var g tasks.RoundGold
		if err := rows.Scan(&g.ID, &g.Sentences, &g.Unanimous, &g.Majority, &g.Adjudicated, &g.Imported, &g.Pending, &g.Waiting); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

// checkRoundGold compares RoundGoldCounts with the join and returns the
// counts.
func checkRoundGold(t *testing.T, ctx context.Context, s *tasks.Store, projectID int64) []tasks.RoundGold {
	t.Helper()
	got, err := s.RoundGoldCounts(ctx, projectID)
	if err != nil {
		t.Fatal(err)
	}
	want := roundGoldByJoin(t, ctx, s.Path(), projectID)
	if len(got) != len(want) {
		t.Fatalf("%d rounds, the join has %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		w.Round = g.Round
		if g.ID != want[i].ID || g != w {
			t.Fatalf("round %d: %+v, the join gives %+v", g.ID, g, want[i])
		}
	}
	return got
}
