package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
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

// scanLabels returns the function that scans a row of the labels query
// into a labelRow. Its two scratch values are the closure's, made once:
// as locals of each call they escape to the heap through Scan, two
// allocations a label.
func scanLabels() func(rows *sql.Rows, l *labelRow) error {
	var packed int64
	var texts sql.NullString
	return func(rows *sql.Rows, l *labelRow) error { return scanLabel(rows, l, &packed, &texts) }
}

func scanLabel(rows *sql.Rows, l *labelRow, packed *int64, texts *sql.NullString) error {
	if err := rows.Scan(&l.assignment, packed, (*orEmpty)(&l.types), &l.updatedAt, texts); err != nil {
		return err
	}
	l.sentence, l.bits = *packed>>9, int(*packed&511)
	l.explanation, l.ambiguityType, l.ambiguityNote, l.unsureNote, l.firstLabel = "", "", "", "", ""
	if !texts.Valid {
		return nil
	}
	var t [5]string
	if err := labelTexts(texts.String, t[:]); err != nil {
		return fmt.Errorf("label of sentence %d in assignment %d: %w", l.sentence, l.assignment, err)
	}
	l.explanation, l.ambiguityType, l.ambiguityNote, l.unsureNote, l.firstLabel = t[0], t[1], t[2], t[3], t[4]
	return nil
}

// labelTextsColumn is a label's explanation (an unfaithful label's
// only), ambiguity type, ambiguity note, unsure note and first label
// (when not a label value) in one text: the byte lengths of the first
// four, each followed by a comma, then the five texts one after another.
const labelTextsColumn = `length(CAST(CASE WHEN l.label = 'unfaithful' THEN l.explanation ELSE '' END AS BLOB)) || ','
		|| length(CAST(l.ambiguity_type AS BLOB)) || ',' || length(CAST(l.ambiguity_note AS BLOB)) || ','
		|| length(CAST(l.unsure_note AS BLOB)) || ','
		|| CASE WHEN l.label = 'unfaithful' THEN l.explanation ELSE '' END || l.ambiguity_type || l.ambiguity_note || l.unsure_note
		|| CASE WHEN l.first_label NOT IN ('', 'faithful', 'unfaithful', 'borderline') THEN l.first_label ELSE '' END`

// labelTexts splits a labelTextsColumn value into its len(out) texts.
func labelTexts(v string, out []string) error {
	rest := v
	var buf [8]int
	lens := buf[:0]
	for range len(out) - 1 {
		comma := strings.IndexByte(rest, ',')
		if comma < 0 {
			return fmt.Errorf("texts %q: %d lengths, want %d", v, len(lens), len(out)-1)
		}
		n, err := strconv.Atoi(rest[:comma])
		if err != nil || n < 0 {
			return fmt.Errorf("texts %q: length %q", v, rest[:comma])
		}
		lens = append(lens, n)
		rest = rest[comma+1:]
	}
	for i, n := range lens {
		if n > len(rest) {
			return fmt.Errorf("texts %q: text %d of %d bytes, %d left", v, i+1, n, len(rest))
		}
		out[i], rest = rest[:n], rest[n:]
	}
	out[len(out)-1] = rest
	return nil
}

// openLabels opens the labels query, on a second connection when it can
// (see openApart).
func (r *ExportReader) openLabels(ctx context.Context) (rowSource[labelRow], error) {
	return openApart(ctx, r, "labels", r.scoped(cellQueries["labels"]), scanLabels())
}
