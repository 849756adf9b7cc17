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
// summary labels 30. Gold adds nothing of its own: sentences with equal
// gold share one ReportGold (see reportSentences), and the sentence's
// pointer to it is counted with the sentence. Key-fact links, scores
// and flags are counted by their own rows.
var reportRowBytes = []struct {
	table string
	bytes int64
}{
	{"sentence_labels", 40},
	{"assignments", 72},
	{"summary_sentences", 36 + 24}, // the sentence and its assistant label
	{"summary_labels", 32},
	{"keyfact_labels", 32},
	{"scale_scores", 64},
	{"sentence_flags", 48},
}

// ReportSizeHint is an estimate, from above, of the bytes the report data
// (ReportData) of any one project of the database takes: each table's
// span of row ids (each end read from its b-tree, at no cost) times what
// a row takes once read. A caller can bound its memory by it before
// reading (see the agreement command).
func (s *Store) ReportSizeHint(ctx context.Context) (int64, error) {
	var q strings.Builder
	q.WriteString("SELECT 0")
	for _, t := range reportRowBytes {
		q.WriteString(" + " + strconv.FormatInt(t.bytes, 10) + " * coalesce((SELECT max(rowid) FROM " + t.table + ") - (SELECT min(rowid) FROM " + t.table + ") + 1, 0)")
	}
	var n int64
	err := s.read.QueryRowContext(ctx, q.String()).Scan(&n)
	return n, domain.Op("Store.ReportSizeHint", err)
}
