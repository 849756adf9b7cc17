package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"testing"
)

// goldCountRows reads the kept counts and the same counted afresh from
// the gold index, each as "project provenance rounds ready flagged split"
// to count.
func goldCountRows(t *testing.T, db *sql.DB) (kept, counted map[string]int) {
	t.Helper()
	read := func(query string) map[string]int {
		out := map[string]int{}
		rows, err := db.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var project, ready, flagged, split, n int
			var provenance, rounds string
			if err := rows.Scan(&project, &provenance, &rounds, &ready, &flagged, &split, &n); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprint(project, provenance, rounds, ready, flagged, split)] = n
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	return read(`SELECT project_id, provenance, rounds, ready, flagged, split, n FROM gold_counts`),
		read(`SELECT project_id, provenance, rounds, ready, flagged, split, count(*) FROM gold_tallies
			GROUP BY project_id, provenance, rounds, ready, flagged, split`)
}

// TestGoldCountsMigrationAndDeletes: the migration that brings in the
// kept counts fills them from an existing gold index, and deleting a
// project's sentences leaves no count of it behind. (That the counts
// follow every change of the index is checked by
// TestGoldIndexMatchesTheLabels, through the queue's and the rounds'
// counts.)
func TestGoldCountsMigrationAndDeletes(t *testing.T) {
	s := labelScanStore(t, 4)
	ctx := context.Background()
	if err := s.RefreshGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	kept, counted := goldCountRows(t, s.read)
	if len(counted) < 3 || !reflect.DeepEqual(kept, counted) {
		t.Fatalf("kept counts %v, counted %v", kept, counted)
	}
	// A database from before the counts: the migration fills them.
	path := s.Path()
	for _, q := range []string{`DROP TRIGGER gold_counts_insert`, `DROP TRIGGER gold_counts_delete`, `DROP TRIGGER gold_counts_update`,
		`DROP TABLE gold_counts`, `PRAGMA user_version = 32`} {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if kept, _ := goldCountRows(t, s.read); !reflect.DeepEqual(kept, counted) {
		t.Fatalf("after the migration, kept counts %v, counted %v", kept, counted)
	}
	// Deleting a project's summaries deletes their index rows, and with
	// the last row of a count, the count.
	p, err := s.ProjectBySlug(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	var before int
	if err := s.read.QueryRow(`SELECT count(*) FROM gold_counts WHERE project_id = ?`, p.ID).Scan(&before); err != nil || before == 0 {
		t.Fatalf("no counts of project %s to delete (%v)", p.Slug, err)
	}
	if _, err := s.write.Exec(`DELETE FROM summaries WHERE project_id = ?`, p.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := s.read.QueryRow(`SELECT count(*) FROM gold_counts WHERE project_id = ?`, p.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d counts of the deleted summaries' project left (%v)", left, err)
	}
	if kept, counted := goldCountRows(t, s.read); len(kept) == 0 || !reflect.DeepEqual(kept, counted) {
		t.Fatalf("after the deletes, kept counts %v, counted %v", kept, counted)
	}
}

// TestGoldCountsFollowEachColumn changes each counted column of a row of
// the gold index in place, as writeGoldIndex writes over a row, and then
// has the index rewrite the row from the labels: the kept counts follow
// both writes.
func TestGoldCountsFollowEachColumn(t *testing.T) {
	s := labelScanStore(t, 5)
	ctx := context.Background()
	if err := s.RefreshGoldIndex(ctx); err != nil {
		t.Fatal(err)
	}
	var sentence int64
	if err := s.read.QueryRow(`SELECT sentence_id FROM gold_tallies WHERE provenance = 'unresolved' LIMIT 1`).Scan(&sentence); err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"provenance = 'imported'", "rounds = ',99,'", "ready = 1 - ready", "flagged = 1 - flagged",
		"split = split + 8", "project_id = project_id + 100"} {
		if _, err := s.write.Exec(`UPDATE gold_tallies SET `+set+` WHERE sentence_id = ?`, sentence); err != nil {
			t.Fatal(err)
		}
		if kept, counted := goldCountRows(t, s.read); !reflect.DeepEqual(kept, counted) {
			t.Fatalf("after SET %s: kept counts %v, counted %v", set, kept, counted)
		}
		if _, err := s.write.Exec(`INSERT INTO gold_tallies_stale (sentence_id) VALUES (?)`, sentence); err != nil {
			t.Fatal(err)
		}
		if err := s.RefreshGoldIndex(ctx); err != nil {
			t.Fatal(err)
		}
		if kept, counted := goldCountRows(t, s.read); !reflect.DeepEqual(kept, counted) {
			t.Fatalf("after SET %s and a rewrite: kept counts %v, counted %v", set, kept, counted)
		}
	}
}
