package tasks

import (
	"context"
	"database/sql"
	"slices"

	"annotate/internal/domain"
)

// majorityBatch is about how many sentences AcceptMajority decides in
// one transaction: a batch takes whole summaries, ending at the first
// summary boundary at or past it. Accepting the 232,106 majorities of the
// 1.5M-label project's production round from the adjudication page, with
// an annotator saving a label every 100 ms meanwhile: batches of 500 took
// 20.5-22.0 s and the saves waited 21-24 ms (median), 130-160 ms (p99);
// batches of 150 took 24.7-25.7 s, the saves 9-10 and 44-47 ms; batches
// of 100 took 29.9-35.0 s, the saves 9-10 and 39-42 ms. Tests change it.
var majorityBatch = 150

// majorityBatchDone, when set (by tests), is called after each batch
// AcceptMajority commits, with the number of sentences decided so far.
var majorityBatchDone func(decided int)

// AcceptMajority decides, as userID, every pending sentence of a round's
// summaries where a strict majority exists on every dimension (see
// Tally.Majority): its gold becomes the majority's values with provenance
// majority. Sentences a person reopened or an annotator flagged are left
// for adjudication. It returns how many sentences it decided.
//
// The round's pending sentences are listed from the read pool, then
// decided summary by summary in transactions of about majorityBatch
// sentences, each of which reads its sentences' labels, gold and flags
// again and decides only those still pending with a majority: a lead's
// decision or a label saved between batches is seen. Accepting the
// 232,106 majorities of the 1.5M-label project's production round in one
// transaction held the writer for 16–17 s, and every save waited that
// long. A failure or a cancelled request keeps the batches committed
// before it; accepting again decides the rest.
func (s *Store) AcceptMajority(ctx context.Context, projectID, roundID, userID int64) (int, error) {
	if err := s.checkProjectRound(ctx, projectID, roundID); err != nil {
		return 0, domain.Op("Store.AcceptMajority", err)
	}
	cands, err := majorityCandidates(ctx, s.read, projectID, roundID)
	if err != nil {
		return 0, domain.Op("Store.AcceptMajority", err)
	}
	n := 0
	for start := 0; start < len(cands); {
		end := min(start+majorityBatch, len(cands))
		for end < len(cands) && cands[end].summary == cands[end-1].summary {
			end++
		}
		ids := make([]int64, 0, end-start)
		for _, c := range cands[start:end] {
			ids = append(ids, c.sentence)
		}
		k, err := s.acceptMajorityBatch(ctx, roundID, userID, ids)
		if err != nil {
			return n, domain.Op("Store.AcceptMajority", err)
		}
		n += k
		start = end
		if majorityBatchDone != nil {
			majorityBatchDone(n)
		}
	}
	return n, nil
}

// majorityCandidate is a pending sentence of a round's summary.
type majorityCandidate struct{ summary, sentence int64 }

// majorityCandidates lists the pending sentences of the project's
// summaries that have a live assignment in the round, by summary.
func majorityCandidates(ctx context.Context, q querier, projectID, roundID int64) ([]majorityCandidate, error) {
	var out []majorityCandidate
	err := queryRows(ctx, q, `SELECT ss.summary_id, g.sentence_id FROM gold_sentences g CROSS JOIN summary_sentences ss ON ss.id = g.sentence_id
		CROSS JOIN summaries sm ON sm.id = ss.summary_id
		WHERE sm.project_id = ?1 AND g.provenance = 'unresolved'
			AND ss.summary_id IN (SELECT summary_id FROM assignments WHERE round_id = ?2 AND status != 'released')
		ORDER BY ss.summary_id, ss.idx`, func(rows *sql.Rows) error {
		var c majorityCandidate
		if err := rows.Scan(&c.summary, &c.sentence); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}, projectID, roundID)
	return out, err
}

// acceptMajorityBatch decides, in one transaction, those of the sentences
// still pending whose majority AcceptMajority takes, and derives their
// summaries' gold.
func (s *Store) acceptMajorityBatch(ctx context.Context, roundID, userID int64, ids []int64) (int, error) {
	var n int
	err := s.tx(ctx, func(tx *sql.Tx) error {
		n = 0
		pending, err := pendingByID(ctx, tx, ids)
		if err != nil {
			return err
		}
		// The statements are prepared once for the batch: each prepared
		// anew (with the triggers it runs) took half the time.
		q := &preparedTx{tx: tx}
		defer q.close()
		var summaries []int64
		for _, p := range pending {
			if !p.InRound(roundID) || !p.MajorityReady() {
				continue
			}
			v, ok := p.Tally.Majority()
			if !ok {
				continue
			}
			g := domain.Gold{SentenceID: p.SentenceID, GoldValues: v, Provenance: domain.ProvMajority, DecidedBy: userID}
			if _, err := s.writeGold(ctx, q, g, false); err != nil {
				return err
			}
			n++
			summaries = append(summaries, p.SummaryID)
		}
		slices.Sort(summaries)
		for _, id := range slices.Compact(summaries) {
			if err := s.deriveSummaryGold(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
