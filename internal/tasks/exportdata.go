package tasks

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"annotate/internal/domain"
)

// ExportReader reads a project for an export inside one read transaction,
// so that the whole export comes from one snapshot. Rows are handed out one
// at a time through nested cursors (documents, then their summaries, then
// their sentences or labels), all walking indexes, so memory stays bounded
// by the largest document whatever the size of the project. Close it when
// done.
type ExportReader struct {
	store *Store
	conn  *sql.Conn
	tx    *sql.Tx
	scope domain.ExportScope
	stmts map[string]*sql.Stmt
	// byRound says that the export walks the round's summaries rather
	// than every summary of the project (see roundWalk).
	byRound bool
}

// BeginExport opens an ExportReader. It waits for a free read connection
// at most exportConnWait; when none frees up by then the error is
// EUnavailable (try again later) rather than a wait without end.
func (s *Store) BeginExport(ctx context.Context, scope domain.ExportScope) (*ExportReader, error) {
	conn, err := s.readConnWithin(ctx, exportConnWait)
	if err != nil {
		if errors.Is(err, errNoReadConn) {
			return nil, domain.Errorf(domain.EUnavailable, "The database is busy with other reads; please try the export again in a moment.")
		}
		return nil, domain.Op("Store.BeginExport", err)
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		conn.Close()
		return nil, domain.Op("Store.BeginExport", err)
	}
	r := &ExportReader{store: s, conn: conn, tx: tx, scope: scope, stmts: map[string]*sql.Stmt{}}
	if r.byRound, err = roundWalk(ctx, tx, scope); err != nil {
		r.Close()
		return nil, domain.Op("Store.BeginExport", err)
	}
	for name, q := range exportQueries {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			r.Close()
			return nil, domain.Op("Store.BeginExport", err)
		}
		r.stmts[name] = st
	}
	return r, nil
}

// Close ends the read transaction and gives its connection back.
func (r *ExportReader) Close() error {
	for _, st := range r.stmts {
		st.Close()
	}
	err := r.tx.Rollback()
	if cerr := r.conn.Close(); err == nil {
		err = cerr
	}
	return domain.Op("ExportReader.Close", err)
}

// exportConnWait bounds how long BeginExport waits for a read connection.
// An export holds its connection for as long as its download lasts, and
// the web server keeps such downloads fewer than the read connections, so
// a wait this long means the pool is held by something else.
var exportConnWait = 30 * time.Second

// An export of a round that covers few of the project's summaries (a
// calibration round) walks that round's summaries, sorted, instead of
// every summary of the project: 3 ms against 0.5 s for the sentences of
// a 200-summary round of the 10x load corpus. A round covering more walks
// the project, which needs no sort. Both walks give the same rows in the
// same order (documents by id, then their summaries by id).
const (
	// roundShare: a round is walked on its own when it covers at most
	// one in this many of the project's summaries.
	roundShare = 8
	// roundCellsFrom and roundCellsWhere stand for cellsFrom and
	// cellsWhere in a round's walk.
	roundCellsFrom = `(SELECT DISTINCT summary_id AS sid FROM assignments WHERE round_id = ?2 AND status != 'released') rs
		CROSS JOIN summaries s ON s.id = rs.sid CROSS JOIN documents d ON d.id = s.document_id`
	roundCellsWhere = `d.project_id = ?1`
)

// roundWalk says whether an export of scope walks its round's summaries
// (see roundShare); both counts read index entries only, the project's
// summaries no more than the share needs.
func roundWalk(ctx context.Context, tx *sql.Tx, scope domain.ExportScope) (bool, error) {
	if scope.RoundID == 0 {
		return false, nil
	}
	switch roundWalkForced.Load() {
	case 1:
		return true, nil
	case 2:
		return false, nil
	}
	var inRound, enough int
	if err := tx.QueryRowContext(ctx, `SELECT count(DISTINCT summary_id) FROM assignments WHERE round_id = ?`, scope.RoundID).Scan(&inRound); err != nil {
		return false, err
	}
	// Whether the project has roundShare × inRound summaries, counted up
	// to that many only: counting all of them took 10 ms on 100,000, a
	// third of the export of a 200-summary round.
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM summaries WHERE project_id = ? LIMIT ?)`,
		scope.ProjectID, roundShare*inRound).Scan(&enough); err != nil {
		return false, err
	}
	return enough >= roundShare*inRound, nil
}

// roundWalkForced, set by tests, makes round exports walk their round
// (1) or the project (2) whatever the round's share.
var roundWalkForced atomic.Int32

// SetRoundWalkForTests makes every round export walk its round's
// summaries (byRound) or every summary of the project, so that tests can
// compare the two; it returns a function that restores the choice by
// share. It panics outside a test binary.
func SetRoundWalkForTests(byRound bool) (restore func()) {
	if !testing.Testing() {
		panic("tasks: SetRoundWalkForTests called outside a test")
	}
	v := int32(2)
	if byRound {
		v = 1
	}
	roundWalkForced.Store(v)
	return func() { roundWalkForced.Store(0) }
}

// scoped returns query q (written over cellsFrom and cellsWhere) as this
// export walks its summaries.
func (r *ExportReader) scoped(q string) string { return scopedQuery(q, r.byRound) }

func scopedQuery(q string, byRound bool) string {
	if !byRound {
		return q
	}
	return strings.Replace(strings.Replace(q, cellsFrom, roundCellsFrom, 1), cellsWhere, roundCellsWhere, 1)
}

// inScope is the round condition on a summary s, with ?2 the round.
const inScope = `(?2 = 0 OR s.id IN (SELECT summary_id FROM assignments WHERE round_id = ?2 AND status != 'released'))`

// submittedOf selects the submitted assignments of summary ?1 in scope.
const submittedOf = `SELECT id FROM assignments WHERE summary_id = ?1 AND status = 'submitted' AND (?2 = 0 OR round_id = ?2)`

// exportQueries are prepared once per export.
var exportQueries = map[string]string{
	"units":      `SELECT speaker, text FROM document_units WHERE document_id = ? ORDER BY idx`,
	"keyfacts":   `SELECT topic, text, category FROM key_facts WHERE document_id = ? ORDER BY topic, idx`,
	"annotation": `SELECT annotation_id FROM document_refs WHERE document_id = ?`,
	"people": `SELECT id FROM (
			SELECT a.user_id AS id FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1 AND (?2 = 0 OR a.round_id = ?2)
			UNION SELECT g.decided_by FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
				JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL
			UNION SELECT g.decided_by FROM gold_summaries g JOIN summaries s ON s.id = g.summary_id
				WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL)
		ORDER BY id`,
}

// Document returns a document's units and key facts.
func (r *ExportReader) Document(ctx context.Context, documentID int64) (domain.ExportDocument, error) {
	var d domain.ExportDocument
	rows, err := r.stmts["units"].QueryContext(ctx, documentID)
	if err != nil {
		return d, domain.Op("ExportReader.Document", err)
	}
	for rows.Next() {
		var u domain.TurnInput
		if err := rows.Scan(&u.Speaker, &u.Text); err != nil {
			rows.Close()
			return d, domain.Op("ExportReader.Document", err)
		}
		d.Units = append(d.Units, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, domain.Op("ExportReader.Document", err)
	}
	rows, err = r.stmts["keyfacts"].QueryContext(ctx, documentID)
	if err != nil {
		return d, domain.Op("ExportReader.Document", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k domain.KeyFactInput
		if err := rows.Scan(&k.Topic, &k.Text, &k.Category); err != nil {
			return d, domain.Op("ExportReader.Document", err)
		}
		d.KeyFacts = append(d.KeyFacts, k)
	}
	return d, domain.Op("ExportReader.Document", rows.Err())
}

// People lists, in id order, the users an export may name: the
// annotators of the assignments in scope and everyone who decided gold in
// the project. Anonymised exports number them in this order.
func (r *ExportReader) People(ctx context.Context) ([]int64, error) {
	rows, err := r.stmts["people"].QueryContext(ctx, r.scope.ProjectID, r.scope.RoundID)
	if err != nil {
		return nil, domain.Op("ExportReader.People", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("ExportReader.People", err)
		}
		out = append(out, id)
	}
	return out, domain.Op("ExportReader.People", rows.Err())
}

// Scores returns the scale scores of the assignments of a summary in
// scope, by assignment.
func (r *ExportReader) Scores(ctx context.Context, summaryID int64) (map[int64]map[domain.ScaleKey]string, error) {
	val, err := r.scores(ctx, summaryID, `SELECT a.id FROM assignments a WHERE a.summary_id = ?1 AND a.status != 'released' AND (?2 = 0 OR a.round_id = ?2)`)
	return val, domain.Op("ExportReader.Scores", err)
}

// SubmittedScores is Scores for the submitted assignments only.
func (r *ExportReader) SubmittedScores(ctx context.Context, summaryID int64) (map[int64]map[domain.ScaleKey]string, error) {
	val, err := r.scores(ctx, summaryID, submittedOf)
	return val, domain.Op("ExportReader.SubmittedScores", err)
}

func (r *ExportReader) scores(ctx context.Context, summaryID int64, assignments string) (map[int64]map[domain.ScaleKey]string, error) {
	rows, err := r.tx.QueryContext(ctx, `SELECT assignment_id, sentence_id, scale, value FROM scale_scores WHERE assignment_id IN (`+assignments+`)`,
		summaryID, r.scope.RoundID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]map[domain.ScaleKey]string{}
	for rows.Next() {
		var a int64
		var k domain.ScaleKey
		var v string
		if err := rows.Scan(&a, &k.Sentence, &k.Scale, &v); err != nil {
			return nil, err
		}
		if out[a] == nil {
			out[a] = map[domain.ScaleKey]string{}
		}
		out[a][k] = v
	}
	return out, rows.Err()
}

// AnnotationID returns the id a document had in the study it was imported
// from, "" when none was given.
func (r *ExportReader) AnnotationID(ctx context.Context, documentID int64) (string, error) {
	var id string
	err := r.stmts["annotation"].QueryRowContext(ctx, documentID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, domain.Op("ExportReader.AnnotationID", err)
}
