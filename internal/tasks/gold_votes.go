package tasks

import (
	"context"
	"database/sql"
	"encoding/json"

	"annotate/internal/domain"
)

// The labels of a summary are pooled over every round that gave it out:
// each annotator counts once, with the label of their most recently
// submitted assignment of it. Released and unsubmitted assignments do not
// count.
const votesSelect = `SELECT l.sentence_id, a.summary_id, a.id, u.id, u.username, u.display_name, r.name,
		l.label, l.error_types, l.explanation, l.ambiguous, l.ambiguity_type, l.ambiguity_note, l.unsure_note,
		l.assistant_visible, l.first_label, l.changed_after_reveal, l.updated_at, coalesce(f.note, '')
	FROM sentence_labels l
	JOIN assignments a ON a.id = l.assignment_id AND a.status = 'submitted'
	JOIN rounds r ON r.id = a.round_id
	JOIN users u ON u.id = a.user_id
	LEFT JOIN sentence_flags f ON f.assignment_id = a.id AND f.sentence_id = l.sentence_id`

const votesOrder = ` ORDER BY l.sentence_id, u.id, a.submitted_at, a.id`

// loadVotes runs votesSelect with a condition and returns the votes by
// sentence id, each sentence's votes ordered by user id.
func loadVotes(ctx context.Context, q querier, cond string, args ...any) (map[int64][]domain.Vote, error) {
	rows, err := q.QueryContext(ctx, votesSelect+` WHERE `+cond+votesOrder, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]domain.Vote{}
	for rows.Next() {
		var v domain.Vote
		var types string
		var amb sql.NullBool
		l := &v.Label
		if err := rows.Scan(&l.SentenceID, &v.SummaryID, &v.AssignmentID, &v.UserID, &v.Username, &v.DisplayName, &v.RoundName,
			&l.Label, &types, &l.Explanation, &amb, &l.AmbiguityType, &l.AmbiguityNote, &l.UnsureNote,
			&l.AssistantVisible, &l.FirstLabel, &l.ChangedAfterReveal, &l.UpdatedAt, &l.Flag); err != nil {
			return nil, err
		}
		if amb.Valid {
			l.Ambiguous = &amb.Bool
		}
		if err := json.Unmarshal([]byte(types), &l.ErrorTypes); err != nil {
			return nil, err
		}
		vs := out[l.SentenceID]
		if n := len(vs); n > 0 && vs[n-1].UserID == v.UserID {
			vs[n-1] = v // a later submission of the same annotator
		} else {
			vs = append(vs, v)
		}
		out[l.SentenceID] = vs
	}
	return out, rows.Err()
}

// SummaryVotes returns the votes on each sentence of a summary.
func (s *Store) SummaryVotes(ctx context.Context, summaryID int64) (map[int64][]domain.Vote, error) {
	val, err := loadVotes(ctx, s.reader(ctx), `a.summary_id = ?`, summaryID)
	return val, domain.Op("Store.SummaryVotes", err)
}

// OpenAssignments counts a summary's assignments that are neither
// submitted nor released: labels still to come.
func (s *Store) OpenAssignments(ctx context.Context, summaryID int64) (int, error) {
	var n int
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM assignments WHERE summary_id = ? AND status IN ('pending', 'in_progress')`, summaryID).Scan(&n)
	return n, domain.Op("Store.OpenAssignments", err)
}

func labelsOf(votes []domain.Vote) []domain.SentenceLabel {
	out := make([]domain.SentenceLabel, len(votes))
	for i, v := range votes {
		out[i] = v.Label
	}
	return out
}
