package tasks

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// ReopenRound opens a closed round again: its assignments that are not
// submitted can be labelled again. Gold and labels are left as they are.
func (s *Store) ReopenRound(ctx context.Context, roundID int64) error {
	return domain.Op("Store.ReopenRound", s.tx(ctx, func(tx *sql.Tx) error {
		err := mustAffect(tx.ExecContext(ctx, `UPDATE rounds SET status = 'open', closed_at = NULL WHERE id = ? AND status = 'closed'`, roundID))
		if domain.ErrorCode(err) == domain.ENotFound {
			return domain.Errorf(domain.EConflict, "this round is already open")
		}
		return err
	}))
}

// RestoreAssignment undoes a release: the assignment goes back to its
// annotator, in progress if they had started it, with its labels. It is
// refused when the round is closed or when the summary has meanwhile been
// given to someone else so that the round already has enough annotators
// for it.
func (s *Store) RestoreAssignment(ctx context.Context, roundID, assignmentID int64) error {
	return domain.Op("Store.RestoreAssignment", s.tx(ctx, func(tx *sql.Tx) error {
		var status, roundStatus string
		var summary int64
		var perItem int
		err := tx.QueryRowContext(ctx, `SELECT a.status, a.summary_id, r.status, r.per_item FROM assignments a JOIN rounds r ON r.id = a.round_id
			WHERE a.id = ? AND a.round_id = ?`, assignmentID, roundID).Scan(&status, &summary, &roundStatus, &perItem)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Errorf(domain.ENotFound, "assignment not found")
		}
		if err != nil {
			return err
		}
		if status != domain.StatusReleased {
			return domain.Errorf(domain.EConflict, "only a released assignment can be given back")
		}
		if roundStatus != "open" {
			return domain.Errorf(domain.EConflict, "the round is closed; reopen it first")
		}
		var active int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM assignments WHERE round_id = ? AND summary_id = ? AND status != 'released'`, roundID, summary).Scan(&active); err != nil {
			return err
		}
		if active >= perItem {
			return domain.Errorf(domain.EConflict, "this summary was given to someone else after the release; release that assignment first")
		}
		_, err = tx.ExecContext(ctx, `UPDATE assignments SET version = version + 1,
			status = CASE WHEN started_at IS NOT NULL OR EXISTS (SELECT 1 FROM sentence_labels WHERE assignment_id = assignments.id) THEN 'in_progress' ELSE 'pending' END
			WHERE id = ?`, assignmentID)
		return err
	}))
}
