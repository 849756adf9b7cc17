package studies

import (
	"context"
	"database/sql"

	"annotate/internal/domain"
)

// Exclude marks a participant excluded, with why, and releases their
// assignments of the study's round: their labels stay, but count nowhere
// (report, gold), and their items go back to be dealt to others. by is
// the lead who decided, 0 for the study's rule; the decision is kept.
func (s *Store) Exclude(ctx context.Context, st *Study, p *Participant, why string, by int64) error {
	return domain.Op("Store.Exclude", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE study_participants SET excluded = 1, excluded_why = ? WHERE id = ?`, why, p.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO study_released (assignment_id, participant_id, status)
			SELECT id, ?, status FROM assignments WHERE round_id = ? AND user_id = ? AND status != 'released'
			ON CONFLICT (assignment_id) DO UPDATE SET status = excluded.status`, p.ID, st.RoundID, p.UserID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released', version = version + 1
			WHERE round_id = ? AND user_id = ? AND status != 'released'`, st.RoundID, p.UserID); err != nil {
			return err
		}
		return decide(ctx, tx, p.ID, true, why, by)
	}))
}

// Include takes back a participant's exclusion: their assignments get back
// the status they had, so their labels count again (their items may by
// then have more than k labels), and the decision is kept.
func (s *Store) Include(ctx context.Context, p *Participant, why string, by int64) error {
	return domain.Op("Store.Include", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE study_participants SET excluded = 0, excluded_why = '' WHERE id = ?`, p.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE assignments SET version = version + 1,
				status = (SELECT r.status FROM study_released r WHERE r.assignment_id = assignments.id)
			WHERE id IN (SELECT assignment_id FROM study_released WHERE participant_id = ?)`, p.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM study_released WHERE participant_id = ?`, p.ID); err != nil {
			return err
		}
		return decide(ctx, tx, p.ID, false, why, by)
	}))
}

func decide(ctx context.Context, tx *sql.Tx, participant int64, excluded bool, why string, by int64) error {
	var who any
	if by != 0 {
		who = by
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO study_decisions (participant_id, excluded, reason, decided_by) VALUES (?, ?, ?, ?)`, participant, excluded, why, who)
	return err
}

// Decision is one exclusion or inclusion of a participant.
type Decision struct {
	Excluded bool
	Reason   string
	By       string // the lead's username; "" for the study's rule
	At       string
}

// Decisions lists a participant's exclusions and inclusions, oldest first.
func (s *Store) Decisions(ctx context.Context, participantID int64) ([]Decision, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT d.excluded, d.reason, coalesce(u.username, ''), d.decided_at
		FROM study_decisions d LEFT JOIN users u ON u.id = d.decided_by WHERE d.participant_id = ? ORDER BY d.id`, participantID)
	if err != nil {
		return nil, domain.Op("Store.Decisions", err)
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var d Decision
		if err := rows.Scan(&d.Excluded, &d.Reason, &d.By, &d.At); err != nil {
			return nil, domain.Op("Store.Decisions", err)
		}
		out = append(out, d)
	}
	return out, domain.Op("Store.Decisions", rows.Err())
}
