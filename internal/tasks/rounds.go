package tasks

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"strings"

	"annotate/internal/domain"
)

// CreateRound adds a round and its assignments in one transaction.
//
// Calibration: every annotator gets every summary. Production: each summary
// goes to PerItem different annotators, dealt as spec.Dealing says (see
// DealBalanced and DealByDocument); ties go to the annotator listed first.
// Each annotator's queue is ordered by document, then summary.
func (s *Store) CreateRound(ctx context.Context, projectID int64, spec domain.RoundSpec) (*domain.Round, error) {
	spec.Name = strings.TrimSpace(spec.Name)
	if err := domain.CheckText("round name", spec.Name, domain.MaxNameLen, false); err != nil {
		return nil, domain.Op("Store.CreateRound", err)
	}
	if spec.Name == "" {
		return nil, domain.Errorf(domain.EInvalid, "a round needs a name")
	}
	if spec.Kind != domain.RoundCalibration && spec.Kind != domain.RoundProduction {
		return nil, domain.Errorf(domain.EInvalid, "round kind must be calibration or production, not %q", spec.Kind)
	}
	annotators := uniqueIDs(spec.Annotators)
	if len(annotators) == 0 {
		return nil, domain.Errorf(domain.EInvalid, "choose at least one annotator")
	}
	if spec.Kind == domain.RoundCalibration {
		spec.PerItem = len(annotators)
	}
	if spec.PerItem < 1 {
		return nil, domain.Errorf(domain.EInvalid, "each summary needs at least one annotator")
	}
	if spec.PerItem > len(annotators) {
		return nil, domain.Errorf(domain.EInvalid, "%d annotators per summary needs at least %d annotators, got %d", spec.PerItem, spec.PerItem, len(annotators))
	}
	if len(spec.Summaries) == 0 {
		return nil, domain.Errorf(domain.EInvalid, "choose at least one summary")
	}
	switch spec.Dealing {
	case "":
		spec.Dealing = domain.DealBalanced
	case domain.DealBalanced, domain.DealByDocument:
	default:
		return nil, domain.Errorf(domain.EInvalid, "dealing must be %s or %s, not %q", domain.DealBalanced, domain.DealByDocument, spec.Dealing)
	}
	var roundID int64
	large := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM rounds WHERE project_id = ? AND name = ?`, projectID, spec.Name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return domain.Errorf(domain.EConflict, "a round named %q already exists", spec.Name)
		}
		for _, uid := range annotators {
			var role string
			err := tx.QueryRowContext(ctx, `SELECT role FROM memberships WHERE project_id = ? AND user_id = ?`, projectID, uid).Scan(&role)
			if errors.Is(err, sql.ErrNoRows) {
				return domain.Errorf(domain.EInvalid, "user %d is not a member of this project", uid)
			}
			if err != nil {
				return err
			}
		}
		docs, err := summariesByDocument(ctx, tx, projectID, uniqueIDs(spec.Summaries))
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO rounds (project_id, name, kind, per_item) VALUES (?, ?, ?, ?)`, projectID, spec.Name, spec.Kind, spec.PerItem)
		if err != nil {
			return err
		}
		if roundID, err = res.LastInsertId(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO round_dealing (round_id, dealing, seed, sample) VALUES (?, ?, ?, ?)`,
			roundID, spec.Dealing, int64(spec.Seed), spec.Sample); err != nil {
			return err
		}
		if n := dealtCount(docs, spec.PerItem); n < holdTriggersFrom {
			return dealAssignments(ctx, tx, roundID, annotators, spec.PerItem, spec.Dealing == domain.DealByDocument, docs)
		}
		// A large round: its counters are bumped and recounted once, as
		// an import's are (see holdReportTriggers), and its summaries'
		// gold index rows marked stale in one statement.
		large = true
		held, err := holdReportTriggers(ctx, tx, dealtGoldTrigger)
		if err != nil {
			return err
		}
		if err := dealAssignments(ctx, tx, roundID, annotators, spec.PerItem, spec.Dealing == domain.DealByDocument, docs); err != nil {
			return err
		}
		if err := markDealtGoldStale(ctx, tx, roundID); err != nil {
			return err
		}
		return held.releaseRound(ctx, tx, projectID, roundID)
	})
	if err == nil && large {
		s.kickGoldIndex()
	}
	if err != nil {
		return nil, domain.Op("Store.CreateRound", err)
	}
	val, err := s.RoundByID(ctx, roundID)
	return val, domain.Op("Store.CreateRound", err)
}

// holdTriggersFrom is the number of assignments from which a new round
// holds the triggers that bump and keep the project's counters and mark
// the gold index stale, and does their work once dealt (see
// holdReportTriggers and markDealtGoldStale): per assignment, those
// triggers made dealing 300,000 assignments (every summary of the
// 1.5M-label project to three annotators) take 20.9 s, the writer held
// all along; counting again costs about a second on that project, more
// than the triggers cost a round of a few thousand. Tests change it.
var holdTriggersFrom = 20000

// markDealtGoldStale does, once, what dealtGoldTrigger does for each new
// assignment: it marks stale the gold index rows of the
// gold sentences of the round's summaries.
func markDealtGoldStale(ctx context.Context, tx *sql.Tx, roundID int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO gold_tallies_stale (sentence_id)
		SELECT g.sentence_id FROM summary_sentences ss CROSS JOIN gold_sentences g ON g.sentence_id = ss.id
		WHERE ss.summary_id IN (SELECT summary_id FROM assignments WHERE round_id = ?)
		ON CONFLICT DO NOTHING`, roundID)
	return err
}

// dealtCount is the number of assignments a round deals: perItem for each
// chosen summary.
func dealtCount(docs []docSummaries, perItem int) int {
	n := 0
	for _, d := range docs {
		n += len(d.summaries)
	}
	return n * perItem
}

// docSummaries is one document's chosen summaries, in id order.
type docSummaries struct {
	doc       int64
	summaries []int64
}

func summariesByDocument(ctx context.Context, tx *sql.Tx, projectID int64, ids []int64) ([]docSummaries, error) {
	// The documents of the project's summaries among ids, looked up in
	// one statement: a statement per summary took 0.8 s of dealing
	// 100,000 summaries, the writer held.
	docOf := make(map[int64]int64, len(ids))
	err := queryRows(ctx, tx, `SELECT s.id, s.document_id FROM summaries s WHERE s.id IN (SELECT value FROM json_each(?)) AND s.project_id = ?`, func(rows *sql.Rows) error {
		var id, doc int64
		err := rows.Scan(&id, &doc)
		docOf[id] = doc
		return err
	}, JSONIDs(ids), projectID)
	if err != nil {
		return nil, err
	}
	var out []docSummaries
	for _, id := range ids {
		doc, ok := docOf[id]
		if !ok {
			return nil, domain.Errorf(domain.EInvalid, "summary %d is not in this project", id)
		}
		if len(out) == 0 || out[len(out)-1].doc != doc {
			out = append(out, docSummaries{doc: doc})
		}
		out[len(out)-1].summaries = append(out[len(out)-1].summaries, id)
	}
	// Merge documents that were not contiguous in the id list.
	sort.SliceStable(out, func(i, j int) bool { return out[i].doc < out[j].doc })
	merged := out[:0]
	for _, d := range out {
		if len(merged) > 0 && merged[len(merged)-1].doc == d.doc {
			merged[len(merged)-1].summaries = append(merged[len(merged)-1].summaries, d.summaries...)
			continue
		}
		merged = append(merged, d)
	}
	return merged, nil
}

// dealAssignments gives each summary to perItem annotators, least loaded
// first, and writes the assignments in queue order. With byDocument a
// document's summaries go to the same annotators as one block; otherwise
// each summary is dealt on its own, which keeps every load within one
// summary of the others, and among equally loaded annotators those who
// already have the document come first.
func dealAssignments(ctx context.Context, tx *sql.Tx, roundID int64, annotators []int64, perItem int, byDocument bool, docs []docSummaries) error {
	next := make(map[int64]int, len(annotators))
	for _, uid := range annotators {
		// Continue each annotator's queue after their open work elsewhere.
		var pos int
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(position), 0) FROM assignments WHERE user_id = ?`, uid).Scan(&pos); err != nil {
			return err
		}
		next[uid] = pos + 1
	}
	// The assignments are written batchRows to a statement, each
	// statement prepared once: one prepared statement a row took 3.8 s
	// of the 6.5 s that dealing 300,000 assignments held the writer.
	q := &preparedTx{tx: tx}
	defer q.close()
	rows := newRowBatch(`INSERT INTO assignments (round_id, summary_id, user_id, position) VALUES `, ``, 4)
	for _, d := range deal(annotators, perItem, byDocument, docSizes(docs)) {
		for _, uid := range annotators {
			for _, k := range d[uid] {
				if err := rows.add(ctx, q, roundID, docs[k.doc].summaries[k.summary], uid, next[uid]); err != nil {
					return err
				}
				next[uid]++
			}
		}
	}
	return rows.flush(ctx, q)
}

func docSizes(docs []docSummaries) []int {
	out := make([]int, len(docs))
	for i, d := range docs {
		out[i] = len(d.summaries)
	}
	return out
}

func uniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

const roundColumns = `id, project_id, name, kind, per_item, status, created_at`

func scanRound(row interface{ Scan(...any) error }) (*domain.Round, error) {
	var r domain.Round
	err := row.Scan(&r.ID, &r.ProjectID, &r.Name, &r.Kind, &r.PerItem, &r.Status, &r.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "round not found")
	}
	return &r, err
}

// RoundByID returns a round.
func (s *Store) RoundByID(ctx context.Context, id int64) (*domain.Round, error) {
	val, err := scanRound(s.reader(ctx).QueryRowContext(ctx, `SELECT `+roundColumns+` FROM rounds WHERE id = ?`, id))
	return val, domain.Op("Store.RoundByID", err)
}

// checkProjectRound fails with ENotFound ("round not found") unless
// roundID is a round of the project.
func (s *Store) checkProjectRound(ctx context.Context, projectID, roundID int64) error {
	_, err := scanRound(s.reader(ctx).QueryRowContext(ctx, `SELECT `+roundColumns+` FROM rounds WHERE id = ? AND project_id = ?`, roundID, projectID))
	return err
}

// RoundByName returns a project's round by name.
func (s *Store) RoundByName(ctx context.Context, projectID int64, name string) (*domain.Round, error) {
	val, err := scanRound(s.reader(ctx).QueryRowContext(ctx, `SELECT `+roundColumns+` FROM rounds WHERE project_id = ? AND name = ?`, projectID, name))
	return val, domain.Op("Store.RoundByName", err)
}

// Rounds lists a project's rounds, oldest first.
func (s *Store) Rounds(ctx context.Context, projectID int64) ([]domain.Round, error) {
	val, err := s.rounds(ctx, `SELECT `+roundColumns+` FROM rounds WHERE project_id = ? ORDER BY id`, projectID)
	return val, domain.Op("Store.Rounds", err)
}

// FeedbackRounds lists the project's closed calibration rounds in which
// the user has work, oldest first: the rounds whose feedback they may read.
func (s *Store) FeedbackRounds(ctx context.Context, projectID, userID int64) ([]domain.Round, error) {
	val, err := s.rounds(ctx, `SELECT `+roundColumns+` FROM rounds WHERE project_id = ? AND kind = 'calibration' AND status = 'closed'
		AND id IN (SELECT round_id FROM assignments WHERE user_id = ? AND status != 'released') ORDER BY id`, projectID, userID)
	return val, domain.Op("Store.FeedbackRounds", err)
}

func (s *Store) rounds(ctx context.Context, query string, args ...any) ([]domain.Round, error) {
	rows, err := s.reader(ctx).QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Round
	for rows.Next() {
		r, err := scanRound(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	return out, rows.Err()
}

// SummaryIDs lists a project's summary ids grouped by document; with
// documents non-empty, only the summaries of those external document ids.
func (s *Store) SummaryIDs(ctx context.Context, projectID int64, documents []string) ([]int64, error) {
	q := `SELECT s.id FROM summaries s JOIN documents d ON d.id = s.document_id WHERE s.project_id = ?`
	args := []any{projectID}
	if len(documents) > 0 {
		q += ` AND d.external_id IN (` + strings.TrimSuffix(strings.Repeat("?,", len(documents)), ",") + `)`
		for _, d := range documents {
			args = append(args, d)
		}
	}
	rows, err := s.reader(ctx).QueryContext(ctx, q+` ORDER BY d.id, s.id`, args...)
	if err != nil {
		return nil, domain.Op("Store.SummaryIDs", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("Store.SummaryIDs", err)
		}
		out = append(out, id)
	}
	return out, domain.Op("Store.SummaryIDs", rows.Err())
}
