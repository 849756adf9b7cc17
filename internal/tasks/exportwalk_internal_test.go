package tasks

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// TestExportQueriesWalkSummaries: every query of a summary walk names the
// project's summaries through cellsFrom and cellsWhere exactly once, so
// that a round export's walk (scopedQuery) replaces both; a query written
// otherwise would quietly walk the whole project.
func TestExportQueriesWalkSummaries(t *testing.T) {
	for set, qs := range map[string]map[string]string{"cells": cellQueries, "summaries": summaryQueries} {
		for name, q := range qs {
			if strings.Count(q, cellsFrom) != 1 || strings.Count(q, cellsWhere) != 1 {
				t.Errorf("%s query %q names cellsFrom %d and cellsWhere %d times", set, name, strings.Count(q, cellsFrom), strings.Count(q, cellsWhere))
			}
			r := scopedQuery(q, true)
			if strings.Contains(r, cellsFrom) || strings.Contains(r, cellsWhere) || !strings.Contains(r, roundCellsFrom) {
				t.Errorf("%s query %q is not rewritten for a round's walk", set, name)
			}
		}
	}
}

// TestRoundWalkAtTheShare makes rounds of a project's summaries around
// one in roundShare of them: a round export walks the round's summaries
// when it covers at most that share, and the project otherwise.
func TestRoundWalkAtTheShare(t *testing.T) {
	s := labelScanStore(t, 2)
	ctx := context.Background()
	p, err := s.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	sums, err := IDList(ctx, s.read, `SELECT id FROM summaries WHERE project_id = ? ORDER BY id`, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	edge := len(sums) / roundShare
	if edge < 2 {
		t.Fatalf("%d summaries: too few for the share", len(sums))
	}
	for _, k := range []int{0, 1, edge, edge + 1, len(sums)} {
		name := fmt.Sprint("walk", k)
		if _, err := s.write.ExecContext(ctx, `INSERT INTO rounds (project_id, name, kind, per_item, status) VALUES (?, ?, 'production', 1, 'open')`, p.ID, name); err != nil {
			t.Fatal(err)
		}
		for i, id := range sums[:k] {
			if _, err := s.write.ExecContext(ctx, `INSERT INTO assignments (round_id, summary_id, user_id, position, status)
				SELECT r.id, ?, (SELECT min(id) FROM users), ?, 'pending' FROM rounds r WHERE r.project_id = ? AND r.name = ?`, id, i+1, p.ID, name); err != nil {
				t.Fatal(err)
			}
		}
		var round int64
		if err := s.read.QueryRowContext(ctx, `SELECT id FROM rounds WHERE project_id = ? AND name = ?`, p.ID, name).Scan(&round); err != nil {
			t.Fatal(err)
		}
		tx, err := s.read.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := roundWalk(ctx, tx, domain.ExportScope{ProjectID: p.ID, RoundID: round})
		tx.Rollback()
		if err != nil {
			t.Fatal(err)
		}
		if want := roundShare*k <= len(sums); got != want {
			t.Errorf("a round of %d of %d summaries walks its own: %v, want %v", k, len(sums), got, want)
		}
	}
}
