package tasks

import (
	"context"
	"strconv"
	"strings"

	"annotate/internal/domain"
)

// reportRowBytes are, for each table the agreement report reads, about
// the bytes one row takes in domain.ReportData once read (slices of
// structs, their strings shared). Measured on the 1.5M-label project:
// labels 38, assignments 69, sentences 34 and their assistant labels 23,
// summary labels 30. Gold (keyed by sentence, so counted rather than
// spanned), key-fact links, scores and flags are counted by their own
// rows.
var reportRowBytes = []struct {
	table string
	bytes int64
	count bool // count the rows: their ids are not dense
}{
	{"sentence_labels", 40, false},
	{"assignments", 72, false},
	{"summary_sentences", 36 + 24, false}, // the sentence and its assistant label
	{"gold_sentences", 96, true},
	{"summary_labels", 32, false},
	{"keyfact_labels", 32, false},
	{"scale_scores", 64, false},
	{"sentence_flags", 48, false},
}

// ReportSizeHint is an estimate, from above, of the bytes the report data
// (ReportData) of any one project of the database takes: each table's
// span of row ids (each end read from its b-tree, at no cost), or its
// rows counted, times what a row takes once read. A caller can bound its memory by it before
// reading (see the agreement command).
func (s *Store) ReportSizeHint(ctx context.Context) (int64, error) {
	var q strings.Builder
	q.WriteString("SELECT 0")
	for _, t := range reportRowBytes {
		rows := "coalesce((SELECT max(rowid) FROM " + t.table + ") - (SELECT min(rowid) FROM " + t.table + ") + 1, 0)"
		if t.count {
			rows = "(SELECT count(*) FROM " + t.table + ")"
		}
		q.WriteString(" + " + strconv.FormatInt(t.bytes, 10) + " * " + rows)
	}
	var n int64
	err := s.read.QueryRowContext(ctx, q.String()).Scan(&n)
	return n, domain.Op("Store.ReportSizeHint", err)
}
