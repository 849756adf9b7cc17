package tasks

import (
	"strings"
	"testing"

	"annotate/internal/testkit/sqlplan"
)

// TestImportedGoldPageReadsItsIndex: the adjudication queue's list of
// imported gold with labels reads the first rows of an index in its
// order, rather than sorting every imported sentence of the project.
func TestImportedGoldPageReadsItsIndex(t *testing.T) {
	s := labelScanStore(t, 1)
	plan := sqlplan.Of(t, s.read, importedGoldPage, 1, 50)
	p := strings.Join(plan, "; ")
	if !strings.Contains(p, "gold_tallies_imported") || strings.Contains(p, "TEMP B-TREE") {
		t.Fatalf("plan: %s", p)
	}
}
