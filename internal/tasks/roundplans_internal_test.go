package tasks

import (
	"database/sql"
	"strings"
	"testing"

	"annotate/internal/testkit/sqlplan"
)

// TestRoundSummaryIDsReadTheRoundsIndex: a round's summaries are read,
// in order and each once, from the round's key on assignments alone,
// without a sort or a visit to the table.
func TestRoundSummaryIDsReadTheRoundsIndex(t *testing.T) {
	s := labelScanStore(t, 1)
	p := strings.Join(sqlplan.Of(t, s.read, roundSummaryIDs, 1), "; ")
	if !strings.Contains(p, "COVERING INDEX sqlite_autoindex_assignments_1") || strings.Contains(p, "TEMP B-TREE") {
		t.Fatalf("plan: %s", p)
	}
}

// TestRoundPageQueriesReadIndexes: the round page reads each annotator's
// counts from round_counts by the round's key, their median seconds from
// the index of a round's assignments by annotator, status and seconds
// alone (no row, no sort), its adjudication counts from gold_counts (not
// the gold index's rows), and finds a page of assignments through the
// annotators' queue index in order, not by sorting the round. The plans
// are read with the statistics of a round of 200,000 assignments by 100
// annotators, under which the planner, left to itself, sorts the round
// for a page.
func TestRoundPageQueriesReadIndexes(t *testing.T) {
	s := labelScanStore(t, 1)
	db, err := sql.Open(driverName, "file:"+s.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`ANALYZE`, `DELETE FROM sqlite_stat1 WHERE tbl IN ('assignments', 'users')`,
		`INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
			('assignments', 'sqlite_autoindex_assignments_1', '200600 100300 2 1'),
			('assignments', 'assignments_queue', '200600 2006 1 1 1'),
			('assignments', 'assignments_user', '200600 2006 1003'),
			('assignments', 'assignments_summary', '200600 2'),
			('assignments', 'assignments_round_user', '200600 100300 2006 1003 50 1'),
			('users', 'sqlite_autoindex_users_1', '200 1')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	// A new connection reads the statistics.
	if db, err = sql.Open(driverName, "file:"+s.Path()); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := strings.Join(sqlplan.Of(t, db, roundCountsQuery, 1), "; ")
	if !strings.Contains(p, "SEARCH c USING PRIMARY KEY (round_id=?)") || strings.Contains(p, "assignments") {
		t.Fatalf("counts plan: %s", p)
	}
	p = strings.Join(sqlplan.Of(t, db, roundMedianSeconds, 1, 2, 2, 10), "; ")
	if !strings.Contains(p, "COVERING INDEX assignments_round_user (round_id=? AND user_id=? AND status=?)") || strings.Contains(p, "TEMP B-TREE") {
		t.Fatalf("median plan: %s", p)
	}
	p = strings.Join(sqlplan.Of(t, db, roundQueueCounts, 1, ",1,"), "; ")
	if !strings.Contains(p, "SEARCH gold_counts USING PRIMARY KEY (project_id=? AND provenance=?)") || strings.Contains(p, "gold_tallies") {
		t.Fatalf("queue counts plan: %s", p)
	}
	p = strings.Join(sqlplan.Of(t, db, roundPageIDs, 1, 200, 0), "; ")
	if !strings.Contains(p, "assignments_queue") || strings.Contains(p, "TEMP B-TREE") {
		t.Fatalf("page plan: %s", p)
	}
	free := strings.Replace(roundPageIDs, "INDEXED BY assignments_queue ", "", 1)
	if p := strings.Join(sqlplan.Of(t, db, free, 1, 200, 0), "; "); !strings.Contains(p, "TEMP B-TREE") {
		t.Fatalf("with these statistics the page query sorts the round unless it names its index, which this test is for; it no longer does: %s", p)
	}
}
