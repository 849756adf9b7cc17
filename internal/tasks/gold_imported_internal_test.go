package tasks

import (
	"context"
	"strings"
	"testing"
)

// TestImportedGoldPageReadsItsIndex: the adjudication queue's list of
// imported gold with labels reads the first rows of an index in its
// order, rather than sorting every imported sentence of the project.
func TestImportedGoldPageReadsItsIndex(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	rows, err := s.read.QueryContext(ctx, "EXPLAIN QUERY PLAN "+importedGoldPage, 1, 50)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	p := strings.Join(plan, "; ")
	if !strings.Contains(p, "gold_tallies_imported") || strings.Contains(p, "TEMP B-TREE") {
		t.Fatalf("plan: %s", p)
	}
}
