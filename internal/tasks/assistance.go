package tasks

import (
	"context"
	"database/sql"
	"errors"
)

// Assistance is how an assignment shows the assistant when it differs
// from its project's setting (a study's assistance condition).
type Assistance struct {
	// Visibility is AssistAlways, AssistAfterLabel or AssistNever.
	Visibility string
	// VerdictOnly shows the Adjudicator's verdict alone, without the
	// Advocate's and the Skeptic's.
	VerdictOnly bool
}

// AssignmentAssistance returns an assignment's own assistance; false when
// it follows its project.
func (s *Store) AssignmentAssistance(ctx context.Context, assignmentID int64) (Assistance, bool, error) {
	var x Assistance
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT visibility, verdict_only FROM assignment_assistance WHERE assignment_id = ?`, assignmentID).
		Scan(&x.Visibility, &x.VerdictOnly)
	if errors.Is(err, sql.ErrNoRows) {
		return Assistance{}, false, nil
	}
	return x, err == nil, Op("Store.AssignmentAssistance", err)
}

// SetAssistanceTx gives an assignment its own assistance, inside tx.
func SetAssistanceTx(ctx context.Context, tx *sql.Tx, assignmentID int64, x Assistance) error {
	switch x.Visibility {
	case AssistAlways, AssistAfterLabel, AssistNever:
	default:
		return Errorf(EInvalid, "assistance: %q is not always, after_first_label or never", x.Visibility)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO assignment_assistance (assignment_id, visibility, verdict_only) VALUES (?, ?, ?)
		ON CONFLICT (assignment_id) DO UPDATE SET visibility = excluded.visibility, verdict_only = excluded.verdict_only`, assignmentID, x.Visibility, x.VerdictOnly)
	return Op("SetAssistanceTx", err)
}
