package tasks

import (
	"context"
	"database/sql"
	"encoding/json"

	"annotate/internal/domain"
)

// importedGoldPage pages the sentences with imported gold and submitted
// labels, those most labelled against their gold first, through the
// gold index's importedGoldIndex: the first rows of the index rather than
// a sort of every imported sentence (49,778 in the 1.5M-label project:
// 70 ms a view).
const importedGoldPage = `SELECT sentence_id FROM gold_tallies WHERE project_id = ? AND provenance = 'imported' AND votes > 0
	ORDER BY against DESC, summary_id, idx LIMIT ?`

// importedGoldIndex orders the gold index's rows of imported gold with
// submitted labels as importedGoldPage reads them.
const importedGoldIndex = `CREATE INDEX IF NOT EXISTS gold_tallies_imported ON gold_tallies(project_id, against DESC, summary_id, idx)
	WHERE provenance = 'imported' AND votes > 0;`

// ImportedGoldLabelled lists the project's sentences with imported gold
// that have submitted labels, those most labelled against their gold
// first, at most limit of them. It pages the gold index (inside a
// FreshSnapshot) and tallies only the sentences it returns.
func (s *Store) ImportedGoldLabelled(ctx context.Context, projectID int64, limit int) ([]domain.ImportedGold, error) {
	var out []domain.ImportedGold
	err := s.FreshSnapshot(ctx, func(ctx context.Context) error {
		q := s.reader(ctx)
		ids, err := IDList(ctx, q, importedGoldPage, projectID, limit)
		if err != nil || len(ids) == 0 {
			return err
		}
		list, err := json.Marshal(ids)
		if err != nil {
			return err
		}
		tallies, err := loadTallies(ctx, q, `l.sentence_id IN (SELECT value FROM json_each(?))`, string(list))
		if err != nil {
			return err
		}
		byID := map[int64]domain.ImportedGold{}
		err = queryRows(ctx, q, `SELECT ss.id, ss.summary_id, ss.idx, ss.text, d.external_id, sm.topic, g.label, g.version
			FROM gold_sentences g CROSS JOIN summary_sentences ss ON ss.id = g.sentence_id CROSS JOIN summaries sm ON sm.id = ss.summary_id
			JOIN documents d ON d.id = sm.document_id
			WHERE g.sentence_id IN (SELECT value FROM json_each(?))`, func(rows *sql.Rows) error {
			var x domain.ImportedGold
			if err := rows.Scan(&x.SentenceID, &x.SummaryID, &x.Index, &x.Text, &x.Document, &x.Topic, &x.Gold, &x.Version); err != nil {
				return err
			}
			x.Tally = tallies[x.SentenceID]
			for _, c := range x.Tally.Labels {
				if c.Value != x.Gold {
					x.Against += c.N
				}
			}
			byID[x.SentenceID] = x
			return nil
		}, string(list))
		for _, id := range ids {
			if x, ok := byID[id]; ok {
				out = append(out, x)
			}
		}
		return err
	})
	return out, domain.Op("Store.ImportedGoldLabelled", err)
}
