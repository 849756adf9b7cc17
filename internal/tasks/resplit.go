package tasks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"annotate/internal/domain"
)

// maxSentences bounds how many sentences a corrected split may have.
const maxSentences = 500

// SplitLock says why a summary's split can no longer be corrected, or ""
// when it still can: once anyone has labelled its sentences, or gold or
// translations are attached to them, moving the boundaries would detach
// them.
func (s *Store) SplitLock(ctx context.Context, summaryID int64) (string, error) {
	val, err := splitLock(ctx, s.read, summaryID)
	return val, domain.Op("Store.SplitLock", err)
}

func splitLock(ctx context.Context, q querier, summaryID int64) (string, error) {
	var labels, facts, gold, translations int
	err := q.QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM sentence_labels l JOIN summary_sentences ss ON ss.id = l.sentence_id WHERE ss.summary_id = ?1),
			(SELECT count(*) FROM keyfact_labels k JOIN summary_sentences ss ON ss.id = k.sentence_id WHERE ss.summary_id = ?1),
			(SELECT count(*) FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id WHERE ss.summary_id = ?1),
			(SELECT count(*) FROM summary_sentences WHERE summary_id = ?1 AND translation != '')`, summaryID).Scan(&labels, &facts, &gold, &translations)
	if err != nil {
		return "", err
	}
	switch {
	case labels+facts > 0:
		return fmt.Sprintf("labelling has started: %d labels are saved on these sentences, and a new split would detach them", labels+facts), nil
	case gold > 0:
		return fmt.Sprintf("%d sentences have gold labels (imported or decided), and a new split would detach them", gold), nil
	case translations > 0:
		return "the sentences carry translations, which a new split cannot divide; import the summary again instead", nil
	}
	return "", nil
}

// ResplitSummary replaces a summary's sentences with a corrected split of
// the same text, before anyone labels it. Only the boundaries may change:
// the sentences, with all whitespace removed, must spell the same text as
// before. Results of assistant runs on the old sentences are dropped.
func (s *Store) ResplitSummary(ctx context.Context, projectID, summaryID int64, sentences []string) error {
	var clean []string
	for _, t := range sentences {
		if t = strings.TrimSpace(t); t != "" {
			clean = append(clean, t)
		}
	}
	if len(clean) == 0 {
		return domain.Errorf(domain.EInvalid, "sentences: give at least one sentence")
	}
	if len(clean) > maxSentences {
		return domain.Errorf(domain.EInvalid, "sentences: at most %d sentences, got %d", maxSentences, len(clean))
	}
	for i, t := range clean {
		if utf8.RuneCountInString(t) > domain.MaxNoteLen {
			return domain.Errorf(domain.EInvalid, "sentences: sentence %d is longer than %d characters", i+1, domain.MaxNoteLen)
		}
	}
	return domain.Op("Store.ResplitSummary", s.tx(ctx, func(tx *sql.Tx) error {
		var project int64
		err := tx.QueryRowContext(ctx, `SELECT project_id FROM summaries WHERE id = ?`, summaryID).Scan(&project)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && project != projectID) {
			return domain.Errorf(domain.ENotFound, "summary not found")
		}
		if err != nil {
			return err
		}
		why, err := splitLock(ctx, tx, summaryID)
		if err != nil {
			return err
		}
		if why != "" {
			return domain.Errorf(domain.EConflict, "the split can no longer change: %s", why)
		}
		rows, err := tx.QueryContext(ctx, `SELECT text FROM summary_sentences WHERE summary_id = ? ORDER BY idx`, summaryID)
		if err != nil {
			return err
		}
		var old []string
		for rows.Next() {
			var t string
			if err := rows.Scan(&t); err != nil {
				rows.Close()
				return err
			}
			old = append(old, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if withoutSpace(strings.Join(old, "")) != withoutSpace(strings.Join(clean, "")) {
			return domain.Errorf(domain.EInvalid, "sentences: a corrected split may only move the boundaries; the text itself differs from the summary's")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM summary_sentences WHERE summary_id = ?`, summaryID); err != nil {
			return err
		}
		for i, t := range clean {
			if _, err := tx.ExecContext(ctx, `INSERT INTO summary_sentences (summary_id, idx, text) VALUES (?, ?, ?)`, summaryID, i+1, t); err != nil {
				return err
			}
		}
		return nil
	}))
}

// withoutSpace removes every whitespace rune.
func withoutSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
