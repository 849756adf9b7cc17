package tasks

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
// them back.
func (w *labelWriter) resolve() error {
	for name, id := range w.summaries {
		if c, ok := w.im.created[name]; ok && c.id == id {
			labels := make(map[int64][]SentenceLabel, len(w.votes[id]))
			for sid, vs := range w.votes[id] {
				for _, v := range vs {
					labels[sid] = append(labels[sid], v.label)
				}
			}
			var st ResolveStats
			if err := w.im.store.resolveLabels(w.im.ctx, w.im.q, id, labels, c.gold, &st); err != nil {
				return err
			}
			continue
		}
		w.pending[id] = true
	}
	for id := range w.pending {
		if _, err := w.im.store.resolveIfReady(w.im.ctx, w.im.q, id); err != nil {
			return err
		}
	}
	clear(w.pending)
	return nil
}

// importedVote is a sentence label the writer gave a summary it made.
type importedVote struct {
	user, assignment int64
	label            SentenceLabel
}

// vote notes a sentence label written on a summary the current document
// made. As in loadVotes, an annotator counts once, with the label of
// their latest assignment (the writer's assignments are submitted in the
// order of their ids).
func (w *labelWriter) vote(summary string, user, aid int64, l *SentenceLabel) {
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
