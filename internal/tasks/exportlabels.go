package tasks

import (
	"context"
	"database/sql"
)

// labelRow is one row of the labels query (cellQueries["labels"]).
type labelRow struct {
	assignment, sentence int64
	bits                 int    // see setLabel
	types                string // "" for none
	explanation          string
	ambiguityType        string
	ambiguityNote        string
	unsureNote           string
	firstLabel           string // when not one of the labels
	updatedAt            string
}

func scanLabel(rows *sql.Rows, l *labelRow) error {
	return rows.Scan(&l.assignment, &l.sentence, &l.bits, (*orEmpty)(&l.types), (*orEmpty)(&l.explanation),
		(*orEmpty)(&l.ambiguityType), (*orEmpty)(&l.ambiguityNote), (*orEmpty)(&l.unsureNote), (*orEmpty)(&l.firstLabel), &l.updatedAt)
}

// openLabels opens the labels query, on a second connection when it can
// (see openApart).
func (r *ExportReader) openLabels(ctx context.Context) (rowSource[labelRow], error) {
	return openApart(ctx, r, "labels", r.scoped(cellQueries["labels"]), scanLabel)
}
