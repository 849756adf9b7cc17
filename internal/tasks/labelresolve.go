package tasks

import (
	"encoding/json"
	"slices"

	"annotate/internal/domain"
)

// The label writer's gold resolution: the summaries it labelled are
// resolved when their document is done, those the document made from the
// labels the writer gave them.

// resolve resolves the gold of the summaries labelled since the last
// forget, in the import's transaction, as a submission does: imported
// labels on which the annotators agree are unanimous gold, the others wait
// in the adjudication queue. Summaries with assignments still open in some
// round are left for their submission.
//
// A summary the current document made is ready (its assignments are the
// writer's, all submitted) and has no labels but those in votes, nor gold
// but what the document gave: it is resolved from those, without reading
// them back; the gold of its sentences that had none is written many rows
// per statement, and its summary gold derived from what it knows.
func (w *labelWriter) resolve() error {
	type madeSummary struct {
		c    createdSummary
		gold []domain.SummaryGoldLabel // each sentence's, by index-1
	}
	var made []madeSummary
	for name, id := range w.summaries {
		c, ok := w.im.created[name]
		if !ok || c.id != id {
			w.pending[id] = true
			continue
		}
		// The summary's sentence gold as it will be: what the document
		// gave, and what resolution writes.
		m := madeSummary{c: c, gold: make([]domain.SummaryGoldLabel, len(c.sentences))}
		for i, sid := range c.sentences {
			if g, ok := c.gold[sid]; ok {
				m.gold[i] = domain.SummaryGoldLabel{Label: g.Label, Provenance: g.Provenance}
			}
		}
		for sid, vs := range w.votes[id] {
			labels := make([]domain.SentenceLabel, len(vs))
			for i, v := range vs {
				labels[i] = v.label
			}
			want, ok := resolvedGold(sid, labels, c.gold, false) // imports carry no flags
			if !ok {
				continue
			}
			if _, had := c.gold[sid]; had {
				// Gold the document gave that resolution owns: replaced.
				replaced, err := w.im.store.writeGold(w.im.ctx, w.im.q, want, true)
				if err != nil {
					return err
				}
				if replaced {
					m.gold[slices.Index(c.sentences, sid)] = domain.SummaryGoldLabel{Label: want.Label, Provenance: want.Provenance}
				}
				continue
			}
			if err := w.newGold(want); err != nil {
				return err
			}
			m.gold[slices.Index(c.sentences, sid)] = domain.SummaryGoldLabel{Label: want.Label, Provenance: want.Provenance}
		}
		made = append(made, m)
	}
	if err := w.goldRows.flush(w.im.ctx, w.im.q); err != nil {
		return err
	}
	if err := w.goldHistoryRows.flush(w.im.ctx, w.im.q); err != nil {
		return err
	}
	// Their summary gold is derived from that, as deriveSummaryGold
	// would from the rows, without its two reads a summary (200,000 for
	// the 1.5M-label file).
	for _, m := range made {
		if err := w.im.store.setSummaryGold(w.im.ctx, w.im.q, m.c.id, m.c.summaryGold, m.gold); err != nil {
			return err
		}
	}
	for id := range w.pending {
		if _, err := w.im.store.resolveIfReady(w.im.ctx, w.im.q, id); err != nil {
			return err
		}
	}
	clear(w.pending)
	return nil
}

// newGold queues the gold of a sentence that has none, and its history
// row, as writeGold writes them.
func (w *labelWriter) newGold(g domain.Gold) error {
	g.ErrorTypes = domain.NonNil(g.ErrorTypes)
	types, _ := json.Marshal(g.ErrorTypes)
	var amb, by any
	if g.Ambiguous != nil {
		amb = *g.Ambiguous
	}
	if g.DecidedBy != 0 {
		by = g.DecidedBy
	}
	g.DecidedAt = stamp(w.im.store.now())
	if err := w.goldRows.add(w.im.ctx, w.im.q, g.SentenceID, g.Label, string(types), g.Explanation, amb, g.AmbiguityType, g.AmbiguityNote,
		g.Provenance, by, g.DecidedAt, g.Note, 1); err != nil {
		return err
	}
	return w.goldHistoryRows.add(w.im.ctx, w.im.q, g.SentenceID, goldHistoryData(&g), by, g.DecidedAt)
}

// importedVote is a sentence label the writer gave a summary it made.
type importedVote struct {
	user, assignment int64
	label            domain.SentenceLabel
}

// vote notes a sentence label written on a summary the current document
// made. As in loadVotes, an annotator counts once, with the label of
// their latest assignment (the writer's assignments are submitted in the
// order of their ids).
func (w *labelWriter) vote(summary string, user, aid int64, l *domain.SentenceLabel) {
	if _, ok := w.im.created[summary]; !ok {
		return
	}
	sumID := w.summaries[summary]
	bySent := w.votes[sumID]
	if bySent == nil {
		bySent = map[int64][]importedVote{}
		w.votes[sumID] = bySent
	}
	vs := bySent[l.SentenceID]
	for i := range vs {
		if vs[i].user == user {
			if aid >= vs[i].assignment {
				vs[i] = importedVote{user, aid, *l}
			}
			return
		}
	}
	bySent[l.SentenceID] = append(vs, importedVote{user, aid, *l})
}
