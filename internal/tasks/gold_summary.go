package tasks

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// deriveSummaryGold keeps gold_summaries in step with a summary's sentence
// gold. When every sentence has a gold label, the summary gets the label
// SummaryLabelFrom gives and the least automatic provenance of its
// sentences; otherwise a derived summary label is withdrawn. Imported
// summary gold is never replaced, and summaries whose sentence gold is all
// imported are left as the import made them.
func (s *Store) deriveSummaryGold(ctx context.Context, tx txQuerier, summaryID int64) error {
	var cur domain.SummaryGoldLabel
	err := tx.QueryRowContext(ctx, `SELECT label, provenance FROM gold_summaries WHERE summary_id = ?`, summaryID).Scan(&cur.Label, &cur.Provenance)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if cur.Provenance == domain.ProvImported {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT coalesce(g.label, ''), coalesce(g.provenance, '') FROM summary_sentences ss
		LEFT JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id = ?`, summaryID)
	if err != nil {
		return err
	}
	var sentences []domain.SummaryGoldLabel
	for rows.Next() {
		var g domain.SummaryGoldLabel
		if err := rows.Scan(&g.Label, &g.Provenance); err != nil {
			rows.Close()
			return err
		}
		sentences = append(sentences, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return s.setSummaryGold(ctx, tx, summaryID, cur, sentences)
}

// setSummaryGold does what deriveSummaryGold decides, given the summary's
// gold (cur, zero for none) and the gold label and provenance of each of
// its sentences (zero for none): an import that made the summary knows
// both without reading them.
func (s *Store) setSummaryGold(ctx context.Context, tx txQuerier, summaryID int64, cur domain.SummaryGoldLabel, sentences []domain.SummaryGoldLabel) error {
	if cur.Provenance == domain.ProvImported {
		return nil
	}
	labels := make([]string, 0, len(sentences))
	complete, rank := true, 0
	for _, g := range sentences {
		if g.Label == "" {
			complete = false
		}
		labels = append(labels, g.Label)
		rank = max(rank, domain.ProvRank[g.Provenance])
	}
	if !complete || len(labels) == 0 {
		if cur.Provenance != "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM gold_summaries WHERE summary_id = ?`, summaryID)
			return err
		}
		return nil
	}
	if rank == 0 {
		return nil
	}
	prov := domain.ProvUnanimous
	for p, r := range domain.ProvRank {
		if r == rank {
			prov = p
		}
	}
	label := domain.SummaryLabelFrom(labels)
	if label == cur.Label && prov == cur.Provenance {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO gold_summaries (summary_id, label, provenance, decided_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (summary_id) DO UPDATE SET label = excluded.label, provenance = excluded.provenance,
			decided_by = NULL, decided_at = excluded.decided_at, note = ''`, summaryID, label, prov, stamp(s.now()))
	return err
}

// SummaryGoldOf returns a summary's gold label, or ENotFound when it has
// none yet.
func (s *Store) SummaryGoldOf(ctx context.Context, summaryID int64) (domain.SummaryGoldLabel, error) {
	var g domain.SummaryGoldLabel
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT label, provenance FROM gold_summaries WHERE summary_id = ?`, summaryID).Scan(&g.Label, &g.Provenance)
	if errors.Is(err, sql.ErrNoRows) {
		return g, domain.Errorf(domain.ENotFound, "this summary has no gold label yet")
	}
	return g, domain.Op("Store.SummaryGoldOf", err)
}
