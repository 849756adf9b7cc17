package tasks

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// AssignmentAssistance returns an assignment's own assistance; false when
// it follows its project.
func (s *Store) AssignmentAssistance(ctx context.Context, assignmentID int64) (domain.Assistance, bool, error) {
	var x domain.Assistance
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT visibility, verdict_only FROM assignment_assistance WHERE assignment_id = ?`, assignmentID).
		Scan(&x.Visibility, &x.VerdictOnly)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Assistance{}, false, nil
	}
	return x, err == nil, domain.Op("Store.AssignmentAssistance", err)
}

// SetAssistanceTx gives an assignment its own assistance, inside tx.
func SetAssistanceTx(ctx context.Context, tx *sql.Tx, assignmentID int64, x domain.Assistance) error {
	switch x.Visibility {
	case domain.AssistAlways, domain.AssistAfterLabel, domain.AssistNever:
	default:
		return domain.Errorf(domain.EInvalid, "assistance: %q is not always, after_first_label or never", x.Visibility)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO assignment_assistance (assignment_id, visibility, verdict_only) VALUES (?, ?, ?)
		ON CONFLICT (assignment_id) DO UPDATE SET visibility = excluded.visibility, verdict_only = excluded.verdict_only`, assignmentID, x.Visibility, x.VerdictOnly)
	return domain.Op("SetAssistanceTx", err)
}
