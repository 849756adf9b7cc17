package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"annotate/internal/domain"
)

// SaveSentenceLabel stores an annotator's label on one sentence of their
// assignment, if the assignment is still at version; it returns the new
// version. A different version means the assignment changed elsewhere
// (another tab) and the save is refused with EConflict rather than
// overwriting. Every save is appended to the label history.
func (s *Store) SaveSentenceLabel(ctx context.Context, assignmentID, userID int64, version int, l domain.SentenceLabel) (int, error) {
	_, v, err := s.saveSentenceLabel(ctx, assignmentID, userID, version, l, false)
	return v, domain.Op("Store.SaveSentenceLabel", err)
}

// SaveSentenceLabelFromPage saves a label sent by the labelling page and
// returns it as stored. Whether the assistant was visible is decided here,
// from the project's visibility mode and the sentence's label history,
// never taken from the client: with after_first_label it was visible once
// a label had been saved for the sentence. (SaveSentenceLabel records the
// caller's AssistantVisible, for imports and tools.)
func (s *Store) SaveSentenceLabelFromPage(ctx context.Context, assignmentID, userID int64, version int, l domain.SentenceLabel) (domain.SentenceLabel, int, error) {
	val1, val2, err := s.saveSentenceLabel(ctx, assignmentID, userID, version, l, true)
	return val1, val2, domain.Op("Store.SaveSentenceLabelFromPage", err)
}

func (s *Store) saveSentenceLabel(ctx context.Context, assignmentID, userID int64, version int, l domain.SentenceLabel, decideVisible bool) (domain.SentenceLabel, int, error) {
	var newVersion int
	err := s.tx(ctx, func(sqlTx *sql.Tx) error {
		tx := cachedTx{sqlTx, &s.writeStmts}
		a, set, err := writableAssignment(ctx, tx, assignmentID, userID)
		if err != nil {
			return err
		}
		if err := l.Validate(set); err != nil {
			return err
		}
		l.DropInapplicable()
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM summary_sentences WHERE id = ? AND summary_id = ?`, l.SentenceID, a.summary).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return domain.Errorf(domain.ENotFound, "sentence not found in this summary")
		}
		if newVersion, err = bumpVersion(ctx, tx, assignmentID, version); err != nil {
			return err
		}
		prev, err := loadSentenceLabel(ctx, tx, assignmentID, l.SentenceID)
		if err != nil {
			return err
		}
		if decideVisible {
			l.AssistantVisible = domain.AssistantShown(set.AssistantVisibility, prev)
		}
		trackReveal(&l, prev)
		l.UpdatedAt = stamp(s.now())
		types, _ := json.Marshal(domain.NonNil(l.ErrorTypes))
		var amb any
		if l.Ambiguous != nil {
			amb = *l.Ambiguous
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sentence_labels (assignment_id, sentence_id, label, error_types, explanation, ambiguous,
				ambiguity_type, ambiguity_note, unsure_note, assistant_visible, changed_after_reveal, first_label, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (assignment_id, sentence_id) DO UPDATE SET label = excluded.label, error_types = excluded.error_types,
				explanation = excluded.explanation, ambiguous = excluded.ambiguous, ambiguity_type = excluded.ambiguity_type,
				ambiguity_note = excluded.ambiguity_note, unsure_note = excluded.unsure_note, assistant_visible = excluded.assistant_visible,
				changed_after_reveal = excluded.changed_after_reveal, first_label = excluded.first_label, updated_at = excluded.updated_at`,
			assignmentID, l.SentenceID, l.Label, string(types), l.Explanation, amb, l.AmbiguityType, l.AmbiguityNote, l.UnsureNote,
			l.AssistantVisible, l.ChangedAfterReveal, l.FirstLabel, l.UpdatedAt); err != nil {
			return err
		}
		if err := saveFlag(ctx, tx, assignmentID, l.SentenceID, l.Flag, l.UpdatedAt); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO sentence_label_history (assignment_id, sentence_id, user_id, data, created_at) VALUES (?, ?, ?, ?, ?)`,
			assignmentID, l.SentenceID, userID, historyData(&l), l.UpdatedAt)
		return err
	})
	return l, newVersion, err
}

// trackReveal carries the anchoring record forward: the label given while
// the assistant was hidden is kept as FirstLabel, and a later label made
// with the assistant visible that differs from it is marked as changed.
func trackReveal(l *domain.SentenceLabel, prev *domain.SentenceLabel) {
	if prev != nil {
		l.FirstLabel = prev.FirstLabel
	}
	if !l.AssistantVisible {
		l.FirstLabel = l.Label
		l.ChangedAfterReveal = false
		return
	}
	l.ChangedAfterReveal = l.FirstLabel != "" && l.Label != l.FirstLabel
}

type assignmentRef struct {
	summary int64
	status  string
}

// writableAssignment checks that the assignment is the user's and that its
// round is open, and returns it with its project's settings.
func writableAssignment(ctx context.Context, tx execQuerier, assignmentID, userID int64) (assignmentRef, domain.Settings, error) {
	var a assignmentRef
	var owner int64
	var roundStatus, raw string
	var visibility string
	err := tx.QueryRowContext(ctx, `SELECT a.summary_id, a.status, a.user_id, r.status, p.settings, coalesce(x.visibility, '')
		FROM assignments a JOIN rounds r ON r.id = a.round_id JOIN projects p ON p.id = r.project_id
		LEFT JOIN assignment_assistance x ON x.assignment_id = a.id WHERE a.id = ?`, assignmentID).
		Scan(&a.summary, &a.status, &owner, &roundStatus, &raw, &visibility)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != userID) {
		return a, domain.Settings{}, domain.Errorf(domain.ENotFound, "assignment not found")
	}
	if err != nil {
		return a, domain.Settings{}, err
	}
	if a.status == domain.StatusReleased {
		return a, domain.Settings{}, domain.Errorf(domain.EConflict, "this assignment was released by a lead and can no longer be changed")
	}
	if roundStatus != "open" {
		return a, domain.Settings{}, domain.Errorf(domain.EConflict, "this round is closed; labels can no longer be changed")
	}
	set, err := decodeSettings(raw)
	if visibility != "" {
		set.AssistantVisibility = visibility // the assignment's own assistance
	}
	return a, set, err
}

// bumpVersion advances an assignment's version if it is still at version.
func bumpVersion(ctx context.Context, tx execQuerier, assignmentID int64, version int) (int, error) {
	res, err := tx.ExecContext(ctx, `UPDATE assignments SET version = version + 1,
		status = CASE WHEN status = 'pending' THEN 'in_progress' ELSE status END,
		started_at = coalesce(started_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
		WHERE id = ? AND version = ?`, assignmentID, version)
	if err != nil {
		return 0, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return 0, domain.Errorf(domain.EConflict, "this summary was changed in another tab or window; reload to see the latest labels")
	}
	return version + 1, nil
}

func loadSentenceLabel(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, assignmentID, sentenceID int64) (*domain.SentenceLabel, error) {
	row := q.QueryRowContext(ctx, `SELECT `+sentenceLabelColumns+` FROM sentence_labels WHERE assignment_id = ? AND sentence_id = ?`, assignmentID, sentenceID)
	l, err := scanSentenceLabel(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return l, err
}

const sentenceLabelColumns = `sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note, unsure_note,
	assistant_visible, first_label, changed_after_reveal, updated_at`

func scanSentenceLabel(row interface{ Scan(...any) error }) (*domain.SentenceLabel, error) {
	var l domain.SentenceLabel
	var types string
	var amb sql.NullBool
	if err := row.Scan(&l.SentenceID, &l.Label, &types, &l.Explanation, &amb, &l.AmbiguityType, &l.AmbiguityNote, &l.UnsureNote,
		&l.AssistantVisible, &l.FirstLabel, &l.ChangedAfterReveal, &l.UpdatedAt); err != nil {
		return nil, err
	}
	if amb.Valid {
		l.Ambiguous = &amb.Bool
	}
	if err := json.Unmarshal([]byte(types), &l.ErrorTypes); err != nil {
		return nil, err
	}
	return &l, nil
}

// SentenceLabels returns an assignment's labels keyed by sentence id,
// with their flags.
func (s *Store) SentenceLabels(ctx context.Context, assignmentID int64) (map[int64]domain.SentenceLabel, error) {
	rows, err := s.query(ctx, `SELECT `+sentenceLabelColumns+` FROM sentence_labels WHERE assignment_id = ?`, assignmentID)
	if err != nil {
		return nil, domain.Op("Store.SentenceLabels", err)
	}
	defer rows.Close()
	out := map[int64]domain.SentenceLabel{}
	for rows.Next() {
		l, err := scanSentenceLabel(rows)
		if err != nil {
			return nil, domain.Op("Store.SentenceLabels", err)
		}
		out[l.SentenceID] = *l
	}
	if err := rows.Err(); err != nil {
		return nil, domain.Op("Store.SentenceLabels", err)
	}
	flags, err := s.query(ctx, `SELECT sentence_id, note FROM sentence_flags WHERE assignment_id = ?`, assignmentID)
	if err != nil {
		return nil, domain.Op("Store.SentenceLabels", err)
	}
	defer flags.Close()
	for flags.Next() {
		var id int64
		var note string
		if err := flags.Scan(&id, &note); err != nil {
			return nil, domain.Op("Store.SentenceLabels", err)
		}
		l := out[id]
		l.Flag = note
		out[id] = l
	}
	return out, domain.Op("Store.SentenceLabels", flags.Err())
}

// saveFlag stores or removes a sentence's flag with its label.
func saveFlag(ctx context.Context, tx execQuerier, assignmentID, sentenceID int64, note, at string) error {
	if strings.TrimSpace(note) == "" {
		_, err := tx.ExecContext(ctx, `DELETE FROM sentence_flags WHERE assignment_id = ? AND sentence_id = ?`, assignmentID, sentenceID)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO sentence_flags (assignment_id, sentence_id, note, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (assignment_id, sentence_id) DO UPDATE SET note = excluded.note, updated_at = excluded.updated_at`, assignmentID, sentenceID, note, at)
	return err
}
