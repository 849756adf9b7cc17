package studies

import (
	"context"
	"database/sql"

	"annotate/internal/domain"
)

// SaveAnswers stores a participant's exit survey answers and ends their
// study, in one transaction.
func (s *Store) SaveAnswers(ctx context.Context, p *Participant, answers map[string]string) error {
	return domain.Op("Store.SaveAnswers", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		for q, a := range answers {
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_answers (participant_id, question, answer) VALUES (?, ?, ?)
				ON CONFLICT (participant_id, question) DO UPDATE SET answer = excluded.answer`, p.ID, q, a); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE study_participants SET phase = ?, finished_at = coalesce(finished_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
			WHERE id = ?`, PhaseCompleted, p.ID)
		return err
	}))
}

// Answer is one exit survey answer, by participant number.
type Answer struct {
	Participant      int // number, from 1
	Question, Answer string
}

// Answers lists a study's exit survey answers by participant and question.
func (s *Store) Answers(ctx context.Context, studyID int64) ([]Answer, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sp.number + 1, a.question, a.answer FROM study_answers a
		JOIN study_participants sp ON sp.id = a.participant_id WHERE sp.study_id = ? ORDER BY sp.number, a.question`, studyID)
	if err != nil {
		return nil, domain.Op("Store.Answers", err)
	}
	defer rows.Close()
	var out []Answer
	for rows.Next() {
		var a Answer
		if err := rows.Scan(&a.Participant, &a.Question, &a.Answer); err != nil {
			return nil, domain.Op("Store.Answers", err)
		}
		out = append(out, a)
	}
	return out, domain.Op("Store.Answers", rows.Err())
}
