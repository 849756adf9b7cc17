package tasks

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"annotate/internal/domain"
)

// SaveSummaryLabel stores an annotator's summary-level label under the same
// version check as sentence labels.
func (s *Store) SaveSummaryLabel(ctx context.Context, assignmentID, userID int64, version int, l domain.SummaryLabel) (int, error) {
	if err := l.Validate(); err != nil {
		return 0, domain.Op("Store.SaveSummaryLabel", err)
	}
	var nv int
	err := s.tx(ctx, func(sqlTx *sql.Tx) error {
		tx := cachedTx{sqlTx, &s.writeStmts}
		if _, _, err := writableAssignment(ctx, tx, assignmentID, userID); err != nil {
			return err
		}
		var err error
		if nv, err = bumpVersion(ctx, tx, assignmentID, version); err != nil {
			return err
		}
		var rel any
		if l.Relevance > 0 {
			rel = l.Relevance
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO summary_labels (assignment_id, relevance, non_summary, topic_category, comment, updated_at)
			VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
			ON CONFLICT (assignment_id) DO UPDATE SET relevance = excluded.relevance, non_summary = excluded.non_summary,
				topic_category = excluded.topic_category, comment = excluded.comment, updated_at = excluded.updated_at`,
			assignmentID, rel, l.NonSummary, l.TopicCategory, l.Comment)
		return err
	})
	return nv, domain.Op("Store.SaveSummaryLabel", err)
}

// SummaryLabelOf returns an assignment's summary label (zero when none).
func (s *Store) SummaryLabelOf(ctx context.Context, assignmentID int64) (domain.SummaryLabel, error) {
	var l domain.SummaryLabel
	var rel sql.NullInt64
	err := s.queryRow(ctx, `SELECT relevance, non_summary, topic_category, comment FROM summary_labels WHERE assignment_id = ?`, assignmentID).
		Scan(&rel, &l.NonSummary, &l.TopicCategory, &l.Comment)
	if errors.Is(err, sql.ErrNoRows) {
		return l, nil
	}
	l.Relevance = int(rel.Int64)
	return l, domain.Op("Store.SummaryLabelOf", err)
}

// SetKeyFactLink records (on) or removes (off) that a sentence carries a
// key fact, in the annotator's assignment, under the version check.
func (s *Store) SetKeyFactLink(ctx context.Context, assignmentID, userID int64, version int, keyFactID, sentenceID int64, on bool) (int, error) {
	var nv int
	err := s.tx(ctx, func(sqlTx *sql.Tx) error {
		tx := cachedTx{sqlTx, &s.writeStmts}
		a, _, err := writableAssignment(ctx, tx, assignmentID, userID)
		if err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id
			JOIN key_facts k ON k.document_id = s.document_id WHERE ss.id = ? AND ss.summary_id = ? AND k.id = ?`, sentenceID, a.summary, keyFactID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return domain.Errorf(domain.ENotFound, "no such key fact or sentence in this summary")
		}
		if nv, err = bumpVersion(ctx, tx, assignmentID, version); err != nil {
			return err
		}
		if on {
			_, err = tx.ExecContext(ctx, `INSERT OR IGNORE INTO keyfact_labels (assignment_id, key_fact_id, sentence_id) VALUES (?, ?, ?)`, assignmentID, keyFactID, sentenceID)
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM keyfact_labels WHERE assignment_id = ? AND key_fact_id = ? AND sentence_id = ?`, assignmentID, keyFactID, sentenceID)
		}
		return err
	})
	return nv, domain.Op("Store.SetKeyFactLink", err)
}

// KeyFactLinks returns an assignment's key-fact alignment as a set of
// (key fact, sentence) pairs.
func (s *Store) KeyFactLinks(ctx context.Context, assignmentID int64) (map[[2]int64]bool, error) {
	rows, err := s.query(ctx, `SELECT key_fact_id, sentence_id FROM keyfact_labels WHERE assignment_id = ?`, assignmentID)
	if err != nil {
		return nil, domain.Op("Store.KeyFactLinks", err)
	}
	defer rows.Close()
	out := map[[2]int64]bool{}
	for rows.Next() {
		var k, s int64
		if err := rows.Scan(&k, &s); err != nil {
			return nil, domain.Op("Store.KeyFactLinks", err)
		}
		out[[2]int64{k, s}] = true
	}
	return out, domain.Op("Store.KeyFactLinks", rows.Err())
}

// maxActiveStep bounds one report of active time, so a stuck tab cannot
// add hours at once.
const maxActiveStep = 120

// AddActiveTime adds seconds of active work to the user's assignment. One
// report adds at most maxActiveStep seconds and no more than the wall time
// since the assignment's previous report, or since its page was first
// opened (MarkPageOpened), so reports sent in a burst add nothing and no
// report claims more time than has passed; a submitted or released
// assignment takes none (EConflict).
func (s *Store) AddActiveTime(ctx context.Context, assignmentID, userID int64, seconds int) error {
	if seconds <= 0 {
		return nil
	}
	now := s.now()
	return domain.Op("Store.AddActiveTime", s.tx(ctx, func(tx *sql.Tx) error {
		var status, last string
		err := tx.QueryRowContext(ctx, `SELECT a.status, coalesce(x.last_report_at, '')
			FROM assignments a LEFT JOIN assignment_activity x ON x.assignment_id = a.id WHERE a.id = ? AND a.user_id = ?`,
			assignmentID, userID).Scan(&status, &last)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Errorf(domain.ENotFound, "assignment not found")
		}
		if err != nil {
			return err
		}
		if status == domain.StatusSubmitted || status == domain.StatusReleased {
			return domain.Errorf(domain.EConflict, "this assignment is %s; its active time is final", status)
		}
		add := min(seconds, maxActiveStep)
		if t, err := time.Parse(time.RFC3339Nano, last); err == nil {
			add = min(add, int(now.Sub(t).Seconds()))
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO assignment_activity (assignment_id, last_report_at) VALUES (?, ?)
			ON CONFLICT (assignment_id) DO UPDATE SET last_report_at = excluded.last_report_at`, assignmentID, stamp(now)); err != nil {
			return err
		}
		if add <= 0 {
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE assignments SET active_seconds = active_seconds + ? WHERE id = ?`, add, assignmentID)
		return err
	}))
}

// MarkPageOpened records when an open assignment's labelling page was
// first served, the start of the wall-clock time its active time is
// bounded by. Later views change nothing (and write nothing).
func (s *Store) MarkPageOpened(ctx context.Context, assignmentID int64) error {
	var one int
	err := s.read.QueryRowContext(ctx, `SELECT 1 FROM assignment_activity WHERE assignment_id = ?`, assignmentID).Scan(&one)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return domain.Op("Store.MarkPageOpened", err)
	}
	return domain.Op("Store.MarkPageOpened", s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO assignment_activity (assignment_id, last_report_at) VALUES (?, ?)`, assignmentID, stamp(s.now()))
		return err
	}))
}

// Submit marks the user's assignment as submitted when every required
// field is filled; otherwise it returns *Incomplete saying exactly what is
// missing, sentence by sentence.
func (s *Store) Submit(ctx context.Context, assignmentID, userID int64) error {
	return domain.Op("Store.Submit", s.tx(ctx, func(sqlTx *sql.Tx) error {
		tx := cachedTx{sqlTx, &s.writeStmts}
		a, set, err := writableAssignment(ctx, tx, assignmentID, userID)
		if err != nil {
			return err
		}
		missing, err := missingItems(ctx, tx, assignmentID, a.summary, set)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return &domain.Incomplete{Items: missing}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM assignment_skips WHERE assignment_id = ?`, assignmentID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE assignments SET status = 'submitted', version = version + 1,
			submitted_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), started_at = coalesce(started_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
			WHERE id = ?`, assignmentID)
		if err != nil {
			return err
		}
		// The last submission of a summary resolves its gold (one
		// summary: a few statements).
		_, err = s.resolveIfReady(ctx, tx, a.summary)
		return err
	}))
}
