package studies

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// StudyChecks lists the attention checks (screening and training aside) of
// every participant of a study, by participant id.
func (s *Store) StudyChecks(ctx context.Context, studyID int64) (map[int64][]CheckResult, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.participant_id, c.assignment_id, a.summary_id, a.status = 'submitted', c.passed
		FROM study_checks c JOIN assignments a ON a.id = c.assignment_id JOIN study_participants sp ON sp.id = c.participant_id
		WHERE sp.study_id = ? AND c.screening = 0 AND c.training = 0 ORDER BY c.participant_id, a.position, c.assignment_id`, studyID)
	if err != nil {
		return nil, domain.Op("Store.StudyChecks", err)
	}
	defer rows.Close()
	out := map[int64][]CheckResult{}
	for rows.Next() {
		var pid int64
		var r CheckResult
		var passed sql.NullBool
		if err := rows.Scan(&pid, &r.AssignmentID, &r.SummaryID, &r.Submitted, &passed); err != nil {
			return nil, domain.Op("Store.StudyChecks", err)
		}
		if passed.Valid {
			r.Passed = &passed.Bool
		}
		out[pid] = append(out[pid], r)
	}
	return out, domain.Op("Store.StudyChecks", rows.Err())
}

// CheckOf says whether an assignment is an attention check, and of whom.
func (s *Store) CheckOf(ctx context.Context, assignmentID int64) (participantID int64, ok bool, err error) {
	err = s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT participant_id FROM study_checks WHERE assignment_id = ?`, assignmentID).Scan(&participantID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return participantID, err == nil, domain.Op("Store.CheckOf", err)
}

// CheckResult is one attention check of a participant.
type CheckResult struct {
	AssignmentID, SummaryID int64
	Submitted               bool
	Passed                  *bool
}

// Checks lists a participant's attention checks.
func (s *Store) Checks(ctx context.Context, participantID int64) ([]CheckResult, error) {
	val, err := s.checks(ctx, participantID, false, false)
	return val, domain.Op("Store.Checks", err)
}

// Screening lists a participant's screening items, in the order dealt.
func (s *Store) Screening(ctx context.Context, participantID int64) ([]CheckResult, error) {
	val, err := s.checks(ctx, participantID, true, false)
	return val, domain.Op("Store.Screening", err)
}

// Training lists a participant's training items, in the order dealt;
// Passed is set once they have read the item's feedback.
func (s *Store) Training(ctx context.Context, participantID int64) ([]CheckResult, error) {
	val, err := s.checks(ctx, participantID, false, true)
	return val, domain.Op("Store.Training", err)
}

func (s *Store) checks(ctx context.Context, participantID int64, screening, training bool) ([]CheckResult, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.assignment_id, a.summary_id, a.status = 'submitted', c.passed
		FROM study_checks c JOIN assignments a ON a.id = c.assignment_id WHERE c.participant_id = ? AND c.screening = ? AND c.training = ?
		ORDER BY a.position, c.assignment_id`, participantID, screening, training)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []CheckResult
	for rows.Next() {
		var r CheckResult
		var passed sql.NullBool
		if err := rows.Scan(&r.AssignmentID, &r.SummaryID, &r.Submitted, &passed); err != nil {
			return nil, err
		}
		if passed.Valid {
			r.Passed = &passed.Bool
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// SetCheck records whether a participant passed an attention check.
func (s *Store) SetCheck(ctx context.Context, assignmentID int64, passed bool) error {
	return domain.Op("Store.SetCheck", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE study_checks SET passed = ? WHERE assignment_id = ?`, passed, assignmentID)
		return err
	}))
}

// GoldSummaries returns those of a project's summaries whose every
// sentence has resolved gold: what attention checks are made of.
func (s *Store) GoldSummaries(ctx context.Context, projectID int64) (map[int64]bool, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT s.id FROM summaries s WHERE s.project_id = ?
		AND EXISTS (SELECT 1 FROM summary_sentences ss WHERE ss.summary_id = s.id)
		AND NOT EXISTS (SELECT 1 FROM summary_sentences ss LEFT JOIN gold_sentences g ON g.sentence_id = ss.id
			WHERE ss.summary_id = s.id AND (g.sentence_id IS NULL OR g.provenance = 'unresolved' OR g.label NOT IN ('faithful', 'unfaithful')))`, projectID)
	if err != nil {
		return nil, domain.Op("Store.GoldSummaries", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("Store.GoldSummaries", err)
		}
		out[id] = true
	}
	return out, domain.Op("Store.GoldSummaries", rows.Err())
}

// ProjectChecks is the set of a project's assignments that are attention
// checks.
func (s *Store) ProjectChecks(ctx context.Context, projectID int64) (map[int64]bool, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.assignment_id FROM study_checks c
		JOIN study_participants sp ON sp.id = c.participant_id JOIN studies st ON st.id = sp.study_id WHERE st.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ProjectChecks", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("Store.ProjectChecks", err)
		}
		out[id] = true
	}
	return out, domain.Op("Store.ProjectChecks", rows.Err())
}
