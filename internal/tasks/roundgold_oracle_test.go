package tasks_test

import (
	"context"
	"database/sql"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// roundGoldByJoin is the straightforward form of tasks.RoundGoldCounts:
// every sentence of every summary given out in a round, joined with its
// gold. RoundGoldCounts must give the same counts.
func roundGoldByJoin(t *testing.T, ctx context.Context, path string, projectID int64) []domain.RoundGold {
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
	var out []domain.RoundGold
	for rows.Next() {
		var g domain.RoundGold
		if err := rows.Scan(&g.ID, &g.Sentences, &g.Unanimous, &g.Majority, &g.Adjudicated, &g.Imported, &g.Pending, &g.Waiting); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

// checkRoundGold compares RoundGoldCounts with the join and returns the
// counts.
func checkRoundGold(t *testing.T, ctx context.Context, s *tasks.Store, projectID int64) []domain.RoundGold {
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

// membershipVersion reads the project's membership counters directly: the
// sum of its rounds', which moves when any of them does.
func membershipVersion(t *testing.T, ctx context.Context, path string, projectID int64) int64 {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int64
	if err := db.QueryRowContext(ctx, `SELECT coalesce(sum(m.version), 0) FROM membership_rounds m JOIN rounds r ON r.id = m.round_id WHERE r.project_id = ?`, projectID).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMembershipCounter checks what moves the counter behind the kept
// round members: a save and a submission do not, a release and a re-split
// do, and the counts follow each change.
func TestMembershipCounter(t *testing.T) {
	s, p, users, sums := roundFixture(t, 2, 1, 3)
	ctx := context.Background()
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundCalibration, Annotators: users[:2], Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	checkRoundGold(t, ctx, s, p.ID)
	v0 := membershipVersion(t, ctx, s.Path(), p.ID)
	if v0 == 0 {
		t.Fatal("creating a round did not move the counter")
	}
	q, err := s.Queue(ctx, p.ID, users[0])
	if err != nil || len(q) == 0 {
		t.Fatalf("queue %v, %v", q, err)
	}
	a := q[0]
	sum, err := s.Summary(ctx, a.SummaryID)
	if err != nil {
		t.Fatal(err)
	}
	v := a.Version
	for _, x := range sum.Sentences {
		if v, err = s.SaveSentenceLabel(ctx, a.ID, a.UserID, v, domain.SentenceLabel{SentenceID: x.ID, Label: domain.LabelFaithful}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Submit(ctx, a.ID, a.UserID); err != nil {
		t.Fatal(err)
	}
	if got := membershipVersion(t, ctx, s.Path(), p.ID); got != v0 {
		t.Fatalf("saves and a submission moved the counter from %d to %d", v0, got)
	}
	checkRoundGold(t, ctx, s, p.ID)
	if err := s.ReleaseAssignment(ctx, r.ID, q[len(q)-1].ID); err != nil {
		t.Fatal(err)
	}
	v1 := membershipVersion(t, ctx, s.Path(), p.ID)
	if v1 == v0 {
		t.Fatal("a release did not move the counter")
	}
	checkRoundGold(t, ctx, s, p.ID)
}
