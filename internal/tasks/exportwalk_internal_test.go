package tasks

import (
	"strings"
	"testing"
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
