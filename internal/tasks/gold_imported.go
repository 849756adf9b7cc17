package tasks

import (
	"context"
	"sort"
)

// ImportedGold is a sentence whose gold arrived with the data and that
// annotators have labelled since: a candidate for re-adjudication.
type ImportedGold struct {
	SentenceID int64
	SummaryID  int64
	Document   string
	Topic      string
	Index      int
	Text       string
	Gold       string // the imported faithfulness label
	Tally      Tally
	// Against counts the submitted labels that differ from the gold label.
	Against int
	Version int // the gold's version, for reopening
}

// importedCond selects the project's sentences with imported gold.
const importedCond = `SELECT g.sentence_id FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
	JOIN summaries sm ON sm.id = ss.summary_id WHERE sm.project_id = ? AND g.provenance = 'imported'`

// ImportedGoldLabelled lists the project's sentences with imported gold
// that have submitted labels, those most labelled against their gold
// first, at most limit of them.
func (s *Store) ImportedGoldLabelled(ctx context.Context, projectID int64, limit int) ([]ImportedGold, error) {
	tallies, err := loadTallies(ctx, s.read, `l.sentence_id IN (`+importedCond+`)`, projectID)
	if err != nil || len(tallies) == 0 {
		return nil, Op("Store.ImportedGoldLabelled", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT ss.id, ss.summary_id, ss.idx, ss.text, d.external_id, sm.topic, g.label
		FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id JOIN summaries sm ON sm.id = ss.summary_id
		JOIN documents d ON d.id = sm.document_id
		WHERE sm.project_id = ? AND g.provenance = 'imported'`, projectID)
	if err != nil {
		return nil, Op("Store.ImportedGoldLabelled", err)
	}
	var out []ImportedGold
	for rows.Next() {
		var x ImportedGold
		if err := rows.Scan(&x.SentenceID, &x.SummaryID, &x.Index, &x.Text, &x.Document, &x.Topic, &x.Gold); err != nil {
			rows.Close()
			return nil, Op("Store.ImportedGoldLabelled", err)
		}
		t, ok := tallies[x.SentenceID]
		if !ok {
			continue
		}
		x.Tally = t
		for _, c := range t.Labels {
			if c.Value != x.Gold {
				x.Against += c.N
			}
		}
		out = append(out, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, Op("Store.ImportedGoldLabelled", err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Against != b.Against:
			return a.Against > b.Against
		case a.SummaryID != b.SummaryID:
			return a.SummaryID < b.SummaryID
		}
		return a.Index < b.Index
	})
	if len(out) > limit {
		out = out[:limit]
	}
	for i := range out {
		if out[i].Version, err = goldVersion(ctx, s.read, out[i].SentenceID); err != nil {
			return nil, Op("Store.ImportedGoldLabelled", err)
		}
	}
	return out, nil
}
