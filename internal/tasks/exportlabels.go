package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// labelRow is one row of the labels query (cellQueries["labels"]).
type labelRow struct {
	assignment, sentence int64
	bits                 int    // label_bits (see setLabel)
	types                string // "" for none
	explanation          string
	ambiguityType        string
	ambiguityNote        string
	unsureNote           string
	firstLabel           string // when not one of the labels
	updatedAt            string
}

// scanLabels returns the function that scans a row of the labels query
// into a labelRow; wide when the sentence id is a column of its own (see
// openLabels). Its two scratch values are the closure's, made once: as
// locals of each call they escape to the heap through Scan, two
// allocations a label.
func scanLabels(wide bool) func(rows *sql.Rows, l *labelRow) error {
	var packed int64
	var texts sql.NullString
	return func(rows *sql.Rows, l *labelRow) error { return scanLabel(rows, l, wide, &packed, &texts) }
}

func scanLabel(rows *sql.Rows, l *labelRow, wide bool, packed *int64, texts *sql.NullString) error {
	if wide {
		if err := rows.Scan(&l.assignment, &l.sentence, packed, (*orEmpty)(&l.types), &l.updatedAt, texts); err != nil {
			return err
		}
		l.bits = int(*packed & (1<<labelBitsWidth - 1))
	} else {
		if err := rows.Scan(&l.assignment, packed, (*orEmpty)(&l.types), &l.updatedAt, texts); err != nil {
			return err
		}
		l.sentence, l.bits = *packed>>labelBitsWidth, int(*packed&(1<<labelBitsWidth-1))
	}
	l.explanation, l.ambiguityType, l.ambiguityNote, l.unsureNote, l.firstLabel = "", "", "", "", ""
	if !texts.Valid {
		return nil
	}
	var t [5]string
	if err := unpackText(texts.String, t[:]); err != nil {
		return fmt.Errorf("label of sentence %d in assignment %d: %w", l.sentence, l.assignment, err)
	}
	l.explanation, l.ambiguityType, l.ambiguityNote, l.unsureNote, l.firstLabel = t[0], t[1], t[2], t[3], t[4]
	return nil
}

// labelTextsColumn is a label's explanation (an unfaithful label's
// only), ambiguity type, ambiguity note, unsure note and first label
// (when not a label value) in one text (see packedText), telling the
// label and the first label apart by label_bits.
var labelTextsColumn = packedText(`CASE WHEN l.label_bits & 3 = 2 THEN l.explanation ELSE '' END`,
	"l.ambiguity_type", "l.ambiguity_note", "l.unsure_note",
	`CASE WHEN l.label_bits & 2048 THEN l.first_label ELSE '' END`)

// openLabels opens the labels query, on a second connection when it can
// (see openApart).
func (r *ExportReader) openLabels(ctx context.Context) (rowSource[labelRow], error) {
	// The sentence id travels above label_bits unless the database's
	// sentence ids leave no room there: then it is a column of its own.
	fit, err := sentencesFitAboveLabelBits(ctx, r.tx)
	if err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	query, wide := cellQueries["labels"], !fit
	if wide {
		query = strings.Replace(query, labelSentence, "l.sentence_id, ", 1)
	}
	return openApart(ctx, r, "labels", r.scoped(query), scanLabels(wide))
}
