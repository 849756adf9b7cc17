package tasks

import (
	"context"
	"encoding/json"

	"annotate/internal/domain"
)

// GoldHistory lists the gold changes of a project, newest first, at most
// limit of them; with summaryID non-zero, only that summary's.
func (s *Store) GoldHistory(ctx context.Context, projectID, summaryID int64, limit int) ([]domain.GoldChange, error) {
	// Two queries, so that a summary's history is found through its
	// sentences rather than by walking the whole project's.
	where := `sm.project_id = ?1 AND ss.summary_id = ?2`
	if summaryID == 0 {
		where = `sm.project_id = ?1 AND ?2 = 0`
	}
	rows, err := s.reader(ctx).QueryContext(ctx, `SELECT h.id, h.sentence_id, ss.summary_id, ss.idx, d.external_id, coalesce(u.display_name, ''), h.created_at, h.data
		FROM gold_history h JOIN summary_sentences ss ON ss.id = h.sentence_id JOIN summaries sm ON sm.id = ss.summary_id
		JOIN documents d ON d.id = sm.document_id LEFT JOIN users u ON u.id = h.decided_by
		WHERE `+where+`
		ORDER BY h.id DESC LIMIT ?3`, projectID, summaryID, limit)
	if err != nil {
		return nil, domain.Op("Store.GoldHistory", err)
	}
	defer rows.Close()
	var out []domain.GoldChange
	for rows.Next() {
		var c domain.GoldChange
		var data string
		if err := rows.Scan(&c.ID, &c.SentenceID, &c.SummaryID, &c.SentenceIndex, &c.Document, &c.By, &c.At, &data); err != nil {
			return nil, domain.Op("Store.GoldHistory", err)
		}
		if err := json.Unmarshal([]byte(data), &c.Gold); err != nil {
			return nil, domain.Op("Store.GoldHistory", err)
		}
		// The row's columns, which compact data leaves out (goldHistoryData).
		c.Gold.SentenceID, c.Gold.DecidedAt = c.SentenceID, c.At
		c.Gold.DecidedByName = c.By
		out = append(out, c)
	}
	return out, domain.Op("Store.GoldHistory", rows.Err())
}
