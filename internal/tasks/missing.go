package tasks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"annotate/internal/domain"
)

// rowQuerier is what reading an assignment's completeness needs: a read
// or write transaction has it.
type rowQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Missing lists what the assignment still lacks before it can be
// submitted, in the words Submit uses; nil when it is complete. The labelling
// page shows it after a refused submit (which redirects, so that a reload
// never submits again).
func (s *Store) Missing(ctx context.Context, assignmentID int64) ([]string, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, domain.Op("Store.Missing", err)
	}
	defer tx.Rollback()
	var summaryID int64
	var raw string
	err = tx.QueryRowContext(ctx, `SELECT a.summary_id, p.settings FROM assignments a JOIN rounds r ON r.id = a.round_id
		JOIN projects p ON p.id = r.project_id WHERE a.id = ?`, assignmentID).Scan(&summaryID, &raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "assignment not found")
	}
	if err != nil {
		return nil, domain.Op("Store.Missing", err)
	}
	set, err := decodeSettings(raw)
	if err != nil {
		return nil, domain.Op("Store.Missing", err)
	}
	val, err := missingItems(ctx, tx, assignmentID, summaryID, set)
	return val, domain.Op("Store.Missing", err)
}

// missingItems checks every sentence label and the summary label of an
// assignment against the project's schema, sentence by sentence.
func missingItems(ctx context.Context, tx rowQuerier, assignmentID, summaryID int64, set domain.Settings) ([]string, error) {
	var missing []string
	rows, err := tx.QueryContext(ctx, `SELECT ss.idx, l.label, coalesce(l.error_types, '[]'), coalesce(l.explanation, ''), l.ambiguous,
			coalesce(l.ambiguity_type, ''), coalesce(l.ambiguity_note, '')
		FROM summary_sentences ss LEFT JOIN sentence_labels l ON l.sentence_id = ss.id AND l.assignment_id = ?
		WHERE ss.summary_id = ? ORDER BY ss.idx`, assignmentID, summaryID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var idx int
		var label sql.NullString
		var types string
		var amb sql.NullBool
		var l domain.SentenceLabel
		if err := rows.Scan(&idx, &label, &types, &l.Explanation, &amb, &l.AmbiguityType, &l.AmbiguityNote); err != nil {
			rows.Close()
			return nil, err
		}
		l.Label = label.String
		if amb.Valid {
			l.Ambiguous = &amb.Bool
		}
		if types != "[]" {
			l.ErrorTypes = []string{types}
		}
		for _, m := range l.Missing(set) {
			missing = append(missing, fmt.Sprintf("Sentence %d: %s", idx, m))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if set.Relevance || set.TopicCategory {
		var topic string
		if err := tx.QueryRowContext(ctx, `SELECT topic FROM summaries WHERE id = ?`, summaryID).Scan(&topic); err != nil {
			return nil, err
		}
		var rel sql.NullInt64
		var cat string
		err := tx.QueryRowContext(ctx, `SELECT relevance, topic_category FROM summary_labels WHERE assignment_id = ?`, assignmentID).Scan(&rel, &cat)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if topic != "" && set.Relevance && !rel.Valid {
			missing = append(missing, "Summary: relevance to the topic")
		}
		if topic != "" && set.TopicCategory && cat == "" {
			missing = append(missing, "Summary: topic category")
		}
	}
	scores, err := missingScores(ctx, tx, set, assignmentID, summaryID)
	if err != nil {
		return nil, err
	}
	return append(missing, scores...), nil
}
