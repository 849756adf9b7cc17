package tasks

import (
	"context"
	"database/sql"
	"fmt"

	"annotate/internal/domain"
)

// SaveScaleScore stores an annotator's value for one scale on one sentence
// (sentenceID > 0) or on the summary (0), under the same version check as
// the other labels; "" clears it. It returns the new version.
func (s *Store) SaveScaleScore(ctx context.Context, assignmentID, userID int64, version int, sentenceID int64, scale, value string) (int, error) {
	var nv int
	err := s.tx(ctx, func(sqlTx *sql.Tx) error {
		tx := cachedTx{sqlTx, &s.writeStmts}
		a, set, err := writableAssignment(ctx, tx, assignmentID, userID)
		if err != nil {
			return err
		}
		sc, ok := set.Scale(scale)
		if !ok {
			return domain.Errorf(domain.EInvalid, "this project has no scale %q", scale)
		}
		if (sc.Level == domain.LevelSummary) != (sentenceID == 0) {
			return domain.Errorf(domain.EInvalid, "scale %q is given per %s", scale, sc.Level)
		}
		if sentenceID != 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM summary_sentences WHERE id = ? AND summary_id = ?`, sentenceID, a.summary).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return domain.Errorf(domain.ENotFound, "sentence not found in this summary")
			}
		}
		if value != "" {
			if value, err = sc.ScoreValue(value); err != nil {
				return err
			}
		}
		if nv, err = bumpVersion(ctx, tx, assignmentID, version); err != nil {
			return err
		}
		return writeScore(ctx, tx, assignmentID, sentenceID, scale, value)
	})
	return nv, domain.Op("Store.SaveScaleScore", err)
}

// writeScore stores or clears one score.
func writeScore(ctx context.Context, tx execQuerier, assignmentID, sentenceID int64, scale, value string) error {
	if value == "" {
		_, err := tx.ExecContext(ctx, `DELETE FROM scale_scores WHERE assignment_id = ? AND sentence_id = ? AND scale = ?`, assignmentID, sentenceID, scale)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO scale_scores (assignment_id, sentence_id, scale, value, updated_at)
		VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
		ON CONFLICT (assignment_id, sentence_id, scale) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		assignmentID, sentenceID, scale, value)
	return err
}

// ScaleScores returns an assignment's scores.
func (s *Store) ScaleScores(ctx context.Context, assignmentID int64) (map[domain.ScaleKey]string, error) {
	rows, err := s.query(ctx, `SELECT sentence_id, scale, value FROM scale_scores WHERE assignment_id = ?`, assignmentID)
	if err != nil {
		return nil, domain.Op("Store.ScaleScores", err)
	}
	defer rows.Close()
	out := map[domain.ScaleKey]string{}
	for rows.Next() {
		var k domain.ScaleKey
		var v string
		if err := rows.Scan(&k.Sentence, &k.Scale, &v); err != nil {
			return nil, domain.Op("Store.ScaleScores", err)
		}
		out[k] = v
	}
	return out, domain.Op("Store.ScaleScores", rows.Err())
}

// missingScores lists the required scales an assignment has not filled,
// in words for the annotator.
func missingScores(ctx context.Context, tx querier, set domain.Settings, assignmentID, summaryID int64) ([]string, error) {
	if len(set.Scales) == 0 {
		return nil, nil
	}
	have := map[domain.ScaleKey]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT sentence_id, scale FROM scale_scores WHERE assignment_id = ?`, assignmentID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var k domain.ScaleKey
		if err := rows.Scan(&k.Sentence, &k.Scale); err != nil {
			rows.Close()
			return nil, err
		}
		have[k] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var sentences []int64
	rows, err = tx.QueryContext(ctx, `SELECT id FROM summary_sentences WHERE summary_id = ? ORDER BY idx`, summaryID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		sentences = append(sentences, id)
	}
	rows.Close()
	var out []string
	for _, sc := range set.Scales {
		if sc.Optional {
			continue
		}
		if sc.Level == domain.LevelSummary {
			if !have[domain.ScaleKey{Sentence: 0, Scale: sc.Name}] {
				out = append(out, "Summary: "+sc.Label())
			}
			continue
		}
		for i, id := range sentences {
			if !have[domain.ScaleKey{Sentence: id, Scale: sc.Name}] {
				out = append(out, fmt.Sprintf("Sentence %d: %s", i+1, sc.Label()))
			}
		}
	}
	return out, rows.Err()
}
