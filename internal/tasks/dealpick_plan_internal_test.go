package tasks

import (
	"context"
	"strings"
	"testing"

	"annotate/internal/testkit/sqlplan"
)

// unresolvedStat reads the planner's statistics of the index of
// unresolved gold.
func unresolvedStat(t *testing.T, s *Store) string {
	t.Helper()
	var stat string
	if err := s.write.QueryRowContext(context.Background(), `SELECT coalesce((SELECT stat FROM sqlite_stat1
		WHERE idx = 'gold_sentences_unresolved'), '')`).Scan(&stat); err != nil {
		t.Fatal(err)
	}
	return stat
}

// TestOptimizeReanalyzesIndexesAnalyzedEmpty: a new database's indexes
// are analyzed empty when it is opened; once an import has filled the
// index of unresolved gold, the optimize that follows the import gives
// it statistics that say so, where PRAGMA optimize alone left "0 rows".
func TestOptimizeReanalyzesIndexesAnalyzedEmpty(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	var unresolved int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM gold_sentences WHERE provenance = 'unresolved'`).Scan(&unresolved); err != nil {
		t.Fatal(err)
	}
	if unresolved == 0 {
		t.Fatal("the fixture has no unresolved gold")
	}
	if stat := unresolvedStat(t, s); stat == "" || stat == "0" || strings.HasPrefix(stat, "0 ") {
		t.Fatalf("statistics of gold_sentences_unresolved after the imports: %q, with %d sentences in it", stat, unresolved)
	}

	// Statistics made while it was empty are mended by the next optimize.
	if _, err := s.write.ExecContext(ctx, `UPDATE sqlite_stat1 SET stat = '0 0' WHERE idx = 'gold_sentences_unresolved'`); err != nil {
		t.Fatal(err)
	}
	if err := s.optimize(ctx, "PRAGMA optimize"); err != nil {
		t.Fatal(err)
	}
	if stat := unresolvedStat(t, s); strings.HasPrefix(stat, "0 ") {
		t.Fatalf("statistics of gold_sentences_unresolved after optimize: %q", stat)
	}
}

// TestPickDocumentsPlanIgnoresEmptyStatistics: with statistics that say
// the index of unresolved gold is empty while it is not, the documents'
// counts still go from each document to its summaries, sentences and
// gold, and never read that index whole.
func TestPickDocumentsPlanIgnoresEmptyStatistics(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	conn, err := s.write.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `UPDATE sqlite_stat1 SET stat = '0 0' WHERE idx = 'gold_sentences_unresolved'`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `ANALYZE sqlite_schema`); err != nil { // reloads the statistics
		t.Fatal(err)
	}
	plan := sqlplan.Of(t, conn, pickDocumentsQuery, 1, "", "", "", "", "")
	for _, step := range plan {
		if strings.HasPrefix(step, "SCAN") && !strings.Contains(step, "json_each") {
			t.Fatalf("the documents' query scans: %q\n%s", step, strings.Join(plan, "\n"))
		}
	}
	if !strings.Contains(strings.Join(plan, "\n"), "SEARCH g USING INTEGER PRIMARY KEY") {
		t.Fatalf("the gold counts do not look each sentence's gold up:\n%s", strings.Join(plan, "\n"))
	}
}
