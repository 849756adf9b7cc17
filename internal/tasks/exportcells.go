package tasks

import (
	"context"
	"database/sql"
	"fmt"

	"annotate/internal/domain"
)

// ExportCells is one summary of a raw export: its sentences and every
// sentence × assignment cell of it, labelled or not.
type ExportCells struct {
	ID                               int64
	Document                         string // the document's external id
	External, Topic, Model           string
	Sentences                        []domain.ExportSentence // in order; Gold is not read
	Labels                           []domain.ExportLabel    // by sentence, then assignment
	assignments                      []domain.ExportLabel    // the assignment fields of each assignment, in id order
	sentenceGold, sentenceGoldSource []string                // per sentence: gold label and provenance
	assistant                        []string                // per sentence: the assistant's label
}

// The raw export reads the project with one cursor per table, each walking
// the project's summaries in export order (documents by id, then their
// summaries by id) and merged here summary by summary, rather than with
// queries per summary: one pass over each index instead of hundreds of
// thousands of statements, and each label row read once, by assignment,
// with only the columns that vary per label.
//
// Text columns that are mostly empty are read as NULL when empty (see
// orEmpty): a NULL costs the driver one call where a text costs three.
//
// The documents are walked in rowid order (+d.project_id keeps SQLite from
// reaching them through the (project_id, external_id) index, whose order
// would need the whole result sorted); a document row is small, so even a
// database of many projects is scanned quickly.
const (
	cellsFrom  = `documents d CROSS JOIN summaries s ON s.document_id = d.id`
	cellsWhere = `+d.project_id = ?1 AND ` + inScope
	// cellsAssignments are the assignments of a summary that a raw export
	// lists: all of them, released ones too, of the round in scope.
	cellsAssignments = `CROSS JOIN assignments a ON a.summary_id = s.id AND (?2 = 0 OR a.round_id = ?2)`
)

var cellQueries = map[string]string{
	"summaries": `SELECT s.id, d.external_id, s.external_id, s.topic, s.model FROM ` + cellsFrom +
		` WHERE ` + cellsWhere + ` ORDER BY d.id, s.id`,
	// With each sentence, the assistant's label, when the project has
	// runs: the newest real run's, else a sample run's (see
	// assistantLabel, which gives the %s).
	"sentences": `SELECT ss.summary_id, ss.id, ss.idx, ss.text, nullif(g.label, ''), g.provenance, %s
		FROM ` + cellsFrom + ` CROSS JOIN summary_sentences ss ON ss.summary_id = s.id LEFT JOIN gold_sentences g ON g.sentence_id = ss.id
		WHERE ` + cellsWhere + ` ORDER BY d.id, s.id, ss.idx`,
	// The names of rounds and annotators, the same on many rows, are
	// looked up once each (see cachedNames).
	"assignments": `SELECT a.summary_id, a.id, a.round_id, a.user_id, a.status, a.active_seconds, nullif(a.started_at, ''), nullif(a.submitted_at, ''),
			sl.relevance, coalesce(sl.non_summary, 0), nullif(sl.topic_category, ''), nullif(sl.comment, ''), nullif(k.reason, '')
		FROM ` + cellsFrom + ` ` + cellsAssignments + `
		LEFT JOIN summary_labels sl ON sl.assignment_id = a.id LEFT JOIN assignment_skips k ON k.assignment_id = a.id
		WHERE ` + cellsWhere + ` ORDER BY d.id, s.id, a.id`,
	// Labels come assignment by assignment, in the order of the
	// assignments cursor. Handing a column over costs more than computing
	// it, and a NULL costs least: the sentence and the label's values as
	// stored in label_bits travel as one number (the sentence above them:
	// see setLabel), and the texts but the error types, mostly empty, as
	// one column, NULL when all are empty (see labelTextsColumn). An
	// unfaithful label's error types and explanation are its only ones
	// the export shows.
	"labels": `SELECT l.assignment_id, ` + labelSentence + `l.label_bits,
			CASE WHEN l.label_bits & 515 = 514 THEN l.error_types END, l.updated_at,
			CASE WHEN l.label_bits & 3072 OR (l.label_bits & 3 = 2 AND l.explanation != '') OR l.ambiguity_note != '' OR l.unsure_note != ''
				THEN ` + labelTextsColumn + ` END
		FROM ` + cellsFrom + ` ` + cellsAssignments + ` CROSS JOIN sentence_labels l ON l.assignment_id = a.id
		WHERE ` + cellsWhere + ` ORDER BY d.id, s.id, a.id`,
	"flags": `SELECT f.assignment_id, f.sentence_id, f.note
		FROM ` + cellsFrom + ` ` + cellsAssignments + ` CROSS JOIN sentence_flags f ON f.assignment_id = a.id
		WHERE ` + cellsWhere + ` ORDER BY d.id, s.id, a.id`,
}

// exportAssistantVia, when set by tests, chooses how the raw export reads
// the assistant's labels: "runs" (whole, see runLabels) or "seeks"
// (in the sentences query, see assistantLabel), whatever it walks.
var exportAssistantVia string

// cursor is an open query whose current row has been read (ok) or not.
type cursor struct {
	rows *sql.Rows
	ok   bool // a row is read and not yet used
	done bool
}

func (r *ExportReader) open(ctx context.Context, name string, runs []int64) (*cursor, error) {
	query, args := cellQueries[name], []any{r.scope.ProjectID, r.scope.RoundID}
	if name == "sentences" {
		var label string
		label, args = assistantLabel(runs, args)
		query = fmt.Sprintf(query, label)
	}
	rows, err := r.tx.QueryContext(ctx, r.scoped(query), args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &cursor{rows: rows}, nil
}

// next reads the next row with scan unless one is waiting; false at the
// end.
func (c *cursor) next(scan func(*sql.Rows) error) (bool, error) {
	if c.ok {
		return true, nil
	}
	if c.done {
		return false, nil
	}
	if !c.rows.Next() {
		c.done = true
		return false, c.rows.Err()
	}
	if err := scan(c.rows); err != nil {
		return false, err
	}
	c.ok = true
	return true, nil
}

func (c *cursor) close() {
	if c != nil {
		c.rows.Close()
	}
}

// cellsRow is the row being read of each cursor.
type cellsRow struct {
	sentSummary int64
	sent        domain.ExportSentence
	gold, prov  string
	assistant   string
	asgSummary  int64
	asg         domain.ExportLabel
	flagAsg     int64
	flagSent    int64
	flag        string
}

// EachCells reads every summary in scope, in the order of EachSummary,
// with all its cells: every annotator's label on every sentence,
// including sentences not labelled yet (see ExportLabel), of every
// assignment in scope, released ones too. Each summary is read into an
// ExportCells and handed to fn, which returns the ExportCells to read the
// next summary into: the same one once it is done with it, or another it
// owns, so that a caller can write one summary while the next is read.
// The first summary is read into c.
func (r *ExportReader) EachCells(ctx context.Context, c *ExportCells, fn func(*ExportCells) (*ExportCells, error)) error {
	return domain.Op("ExportReader.EachCells", r.eachCells(ctx, c, fn))
}

func (r *ExportReader) eachCells(ctx context.Context, c *ExportCells, fn func(*ExportCells) (*ExportCells, error)) error {
	var flags bool
	if err := r.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sentence_flags f JOIN assignments a ON a.id = f.assignment_id JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1)`,
		r.scope.ProjectID).Scan(&flags); err != nil {
		return err
	}
	runs, err := runsByPrecedence(ctx, r.tx, r.scope.ProjectID)
	if err != nil {
		return err
	}
	// An export that walks the project's summaries (not a round's few)
	// reads the runs' labels whole, and the sentences query then looks
	// none up (see runLabels).
	var assist *runLabels
	if len(runs) > 0 && (exportAssistantVia == "runs" || exportAssistantVia == "" && !r.byRound) {
		assist, runs = newRunLabels(ctx, r.tx, runs), nil
	}
	names := []string{"summaries", "sentences", "assignments"}
	if flags {
		names = append(names, "flags")
	}
	cur := map[string]*cursor{}
	defer func() {
		for _, c := range cur {
			c.close()
		}
	}()
	for _, n := range names {
		c, err := r.open(ctx, n, runs)
		if err != nil {
			return err
		}
		cur[n] = c
	}
	labels, err := r.openLabels(ctx)
	if err != nil {
		return err
	}
	defer labels.close()
	var row cellsRow
	roundNames := cachedNames{query: `SELECT name FROM rounds WHERE id = ?`}
	userNames := cachedNames{query: `SELECT username FROM users WHERE id = ?`}
	scanSentence := func(rows *sql.Rows) error {
		row.sent = domain.ExportSentence{}
		err := rows.Scan(&row.sentSummary, &row.sent.ID, &row.sent.Index, &row.sent.Text, (*orEmpty)(&row.gold), (*orEmpty)(&row.prov), (*orEmpty)(&row.assistant))
		if err == nil && assist != nil {
			row.assistant, err = assist.of(row.sent.ID)
		}
		return err
	}
	scanAssignment := func(rows *sql.Rows) error {
		a := &row.asg
		*a = domain.ExportLabel{}
		var rel sql.NullInt64
		var round int64
		if err := rows.Scan(&row.asgSummary, &a.AssignmentID, &round, &a.UserID, &a.Status, &a.ActiveSeconds,
			(*orEmpty)(&a.StartedAt), (*orEmpty)(&a.SubmittedAt), &rel, &a.NonSummary,
			(*orEmpty)(&a.TopicCategory), (*orEmpty)(&a.Comment), (*orEmpty)(&a.SkipReason)); err != nil {
			return err
		}
		var err error
		if a.Round, err = roundNames.name(ctx, r.tx, round); err != nil {
			return err
		}
		if a.Username, err = userNames.name(ctx, r.tx, a.UserID); err != nil {
			return err
		}
		if rel.Valid {
			v := int(rel.Int64)
			a.Relevance = &v
		}
		return nil
	}
	scanFlag := func(rows *sql.Rows) error { return rows.Scan(&row.flagAsg, &row.flagSent, &row.flag) }

	var types typeLists
	sums := cur["summaries"]
	for sums.rows.Next() {
		if err := sums.rows.Scan(&c.ID, &c.Document, &c.External, &c.Topic, &c.Model); err != nil {
			return err
		}
		c.Sentences, c.sentenceGold, c.sentenceGoldSource, c.assistant = c.Sentences[:0], c.sentenceGold[:0], c.sentenceGoldSource[:0], c.assistant[:0]
		for {
			ok, err := cur["sentences"].next(scanSentence)
			if err != nil {
				return err
			}
			if !ok || row.sentSummary != c.ID {
				break
			}
			cur["sentences"].ok = false
			c.Sentences = append(c.Sentences, row.sent)
			c.sentenceGold = append(c.sentenceGold, row.gold)
			c.sentenceGoldSource = append(c.sentenceGoldSource, row.prov)
			c.assistant = append(c.assistant, row.assistant)
		}
		c.assignments = c.assignments[:0]
		for {
			ok, err := cur["assignments"].next(scanAssignment)
			if err != nil {
				return err
			}
			if !ok || row.asgSummary != c.ID {
				break
			}
			cur["assignments"].ok = false
			c.assignments = append(c.assignments, row.asg)
		}
		c.fill()
		for ai := range c.assignments {
			id := c.assignments[ai].AssignmentID
			for {
				l, ok, err := labels.peek()
				if err != nil {
					return err
				}
				if !ok || l.assignment != id {
					break
				}
				labels.take()
				if cell := c.cell(ai, l.sentence); cell != nil {
					setLabel(cell, l, &types)
				}
			}
			if f := cur["flags"]; f != nil {
				for {
					ok, err := f.next(scanFlag)
					if err != nil {
						return err
					}
					if !ok || row.flagAsg != id {
						break
					}
					f.ok = false
					if l := c.cell(ai, row.flagSent); l != nil {
						l.Flag = row.flag
					}
				}
			}
		}
		if c, err = fn(c); err != nil {
			return err
		}
	}
	if err := sums.rows.Err(); err != nil {
		return err
	}
	// Every cursor walks the same summaries: one with rows left is out of
	// step with the others, and the export would be wrong.
	if _, ok, err := labels.peek(); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("labels: rows left after the last summary")
	}
	for _, n := range names[1:] {
		if cur[n].ok || (!cur[n].done && cur[n].rows.Next()) {
			return fmt.Errorf("%s: rows left after the last summary", n)
		}
		if err := cur[n].rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// fill lays out the cells of c: one per sentence × assignment, unlabelled.
func (c *ExportCells) fill() {
	n := len(c.Sentences) * len(c.assignments)
	if cap(c.Labels) < n {
		c.Labels = make([]domain.ExportLabel, n)
	}
	c.Labels = c.Labels[:n]
	i := 0
	for si := range c.Sentences {
		for ai := range c.assignments {
			l := &c.Labels[i]
			*l = c.assignments[ai]
			l.SentenceID, l.SentenceIndex = c.Sentences[si].ID, c.Sentences[si].Index
			l.ErrorTypes = []string{}
			l.AssistantLabel, l.GoldLabel, l.GoldProvenance = c.assistant[si], c.sentenceGold[si], c.sentenceGoldSource[si]
			i++
		}
	}
}

// cell returns the cell of the assignment at ai on a sentence of c, nil
// for a sentence of another summary.
func (c *ExportCells) cell(ai int, sentenceID int64) *domain.ExportLabel {
	for si := range c.Sentences {
		if c.Sentences[si].ID == sentenceID {
			return &c.Labels[si*len(c.assignments)+ai]
		}
	}
	return nil
}

// labelNames are the labels by their code in label_bits (see
// sentenceLabelsV45).
var labelNames = [...]string{"", domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline}

// setLabel copies a stored label into its cell.
func setLabel(l *domain.ExportLabel, from *labelRow, types *typeLists) {
	l.Labelled = true
	bits := from.bits
	l.Label, l.Explanation = labelNames[bits&labelBitsLabel], from.explanation
	if from.types != "" {
		l.ErrorTypes = types.decode(from.types)
	}
	if amb := bits >> 4 & 3; amb != 0 {
		v := amb == 2
		l.Ambiguous = &v
	}
	l.AssistantVisible, l.ChangedAfterReveal = bits&64 != 0, bits&128 != 0
	l.FirstLabel = from.firstLabel
	if bits&labelBitsOddFirst == 0 {
		l.FirstLabel = labelNames[bits>>2&labelBitsLabel]
	}
	l.AmbiguityType, l.AmbiguityNote, l.UnsureNote, l.UpdatedAt = from.ambiguityType, from.ambiguityNote, from.unsureNote, from.updatedAt
}

// cachedNames looks names up by id, once each: the rounds and the
// annotators of an export, one entry per person like the pseudonyms of an
// anonymised export.
type cachedNames struct {
	query string
	names map[int64]string
}

func (c *cachedNames) name(ctx context.Context, tx *sql.Tx, id int64) (string, error) {
	if n, ok := c.names[id]; ok {
		return n, nil
	}
	var n string
	if err := tx.QueryRowContext(ctx, c.query, id).Scan(&n); err != nil {
		return "", fmt.Errorf("name of %d: %w", id, err)
	}
	if c.names == nil {
		c.names = map[int64]string{}
	}
	c.names[id] = n
	return n, nil
}

// typeLists decodes the error-type lists of labels, keeping the lists it
// decoded: a project uses few combinations of error types. The lists are
// shared between the cells that hold them, which only read them.
type typeLists map[string][]string

// maxTypeLists bounds the lists kept, in case a project has many.
const maxTypeLists = 1024

func (t *typeLists) decode(raw string) []string {
	if v, ok := (*t)[raw]; ok {
		return v
	}
	v := domain.NonNil(decodeTypes(raw))
	if *t == nil || len(*t) >= maxTypeLists {
		*t = typeLists{}
	}
	(*t)[raw] = v
	return v
}

// orEmpty scans a text column that is NULL for the empty string.
type orEmpty string

// Scan implements sql.Scanner.
func (o *orEmpty) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*o = ""
	case string:
		*o = orEmpty(v)
	case []byte:
		*o = orEmpty(v)
	default:
		return fmt.Errorf("text expected, got %T", v)
	}
	return nil
}
