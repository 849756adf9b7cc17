package tasks

import (
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
