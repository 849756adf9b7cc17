package tasks

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"unicode/utf8"

	"annotate/internal/domain"
)

// maxSkipReason bounds the reason an annotator gives for a skip.
const maxSkipReason = 500

// SkipAssignment records that the user skips their assignment, with a
// reason the leads read; skipping again replaces the reason. A submitted
// assignment cannot be skipped.
func (s *Store) SkipAssignment(ctx context.Context, assignmentID, userID int64, reason string) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return domain.Errorf(domain.EInvalid, "say why you skip this summary")
	}
	if utf8.RuneCountInString(reason) > maxSkipReason {
		return domain.Errorf(domain.EInvalid, "the reason is longer than %d characters", maxSkipReason)
	}
	return domain.Op("Store.SkipAssignment", s.tx(ctx, func(tx *sql.Tx) error {
		a, _, err := writableAssignment(ctx, tx, assignmentID, userID)
		if err != nil {
			return err
		}
		if a.status == domain.StatusSubmitted {
			return domain.Errorf(domain.EConflict, "this summary is already submitted")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO assignment_skips (assignment_id, reason, skipped_at) VALUES (?, ?, ?)
			ON CONFLICT (assignment_id) DO UPDATE SET reason = excluded.reason, skipped_at = excluded.skipped_at`,
			assignmentID, reason, stamp(s.now()))
		return err
	}))
}

// UnskipAssignment takes the user's skip back; the assignment is theirs
// to label again.
func (s *Store) UnskipAssignment(ctx context.Context, assignmentID, userID int64) error {
	return domain.Op("Store.UnskipAssignment", s.tx(ctx, func(tx *sql.Tx) error {
		if _, _, err := writableAssignment(ctx, tx, assignmentID, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM assignment_skips WHERE assignment_id = ?`, assignmentID)
		return err
	}))
}

// SkipOf returns the assignment's skip and whether it is skipped.
func (s *Store) SkipOf(ctx context.Context, assignmentID int64) (domain.Skip, bool, error) {
	var k domain.Skip
	err := s.queryRow(ctx, `SELECT reason, skipped_at FROM assignment_skips WHERE assignment_id = ?`, assignmentID).Scan(&k.Reason, &k.SkippedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Skip{}, false, nil
	}
	return k, err == nil, domain.Op("Store.SkipOf", err)
}

// Skipped returns the user's skipped assignments in a project with their
// reasons, keyed by assignment id.
func (s *Store) Skipped(ctx context.Context, projectID, userID int64) (map[int64]string, error) {
	rows, err := s.query(ctx, `SELECT k.assignment_id, k.reason FROM assignment_skips k JOIN assignments a ON a.id = k.assignment_id
		JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ? AND a.user_id = ?`, projectID, userID)
	if err != nil {
		return nil, domain.Op("Store.Skipped", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var reason string
		if err := rows.Scan(&id, &reason); err != nil {
			return nil, domain.Op("Store.Skipped", err)
		}
		out[id] = reason
	}
	return out, domain.Op("Store.Skipped", rows.Err())
}
