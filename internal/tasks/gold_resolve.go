package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"annotate/internal/domain"
)

// Auto-resolution turns the labels of a summary into gold where the
// annotators agree. A summary is ready in a round once every assignment of
// it in that round is submitted (released ones do not count) and at least
// one is. For each of its sentences, the votes (see Vote) are tallied:
// when at least two annotators agree on the label, the error-type set and
// the ambiguity answer with its type, the sentence gets gold with
// provenance unanimous; otherwise it is unresolved and waits in the
// adjudication queue.
//
// Resolution runs for a summary in the transaction that makes it ready
// (the submission of its last assignment, or the release or move of the
// last one open), so the adjudication queue is never behind and never has
// to resolve on a page view; a lead can resolve a round again
// (ResolveRound), and ResolveReady catches up, in small transactions, on
// summaries that became ready before this was so. It is idempotent:
// running it again changes nothing unless labels changed. It replaces only
// gold it owns (unanimous, and unresolved that nobody reopened); imported,
// majority and adjudicated gold and reopened sentences are left alone.
// Annotators' labels are only read.

// readySummaries selects the summaries that are ready in some round, with
// round_id and project conditions appended by callers.
const readySummaries = `SELECT a.summary_id FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE %s
	GROUP BY a.round_id, a.summary_id
	HAVING sum(a.status = 'submitted') > 0 AND sum(a.status IN ('pending', 'in_progress')) = 0`

// IDList runs a query of one integer column and returns its values in
// the order read, each once: for the store and its sibling stores (such
// as studies) that read lists of ids.
func IDList(ctx context.Context, q Querier, query string, args ...any) ([]int64, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, domain.Op("IDList", err)
	}
	defer rows.Close()
	var out []int64
	seen := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("IDList", err)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, domain.Op("IDList", rows.Err())
}

// ResolveRound resolves every summary that is ready in a round of the
// project. The ready summaries are listed from the read pool, then
// resolved in transactions of roundResolveBatch summaries, each resolving
// those of its summaries still ready in the round: in one transaction,
// without statements prepared once a batch, resolving the 100,000 ready
// summaries of the 1.5M-label project's production round held the writer
// for 36 s (2 min 8 s with no gold resolved yet), and every save waited
// that long. A failure or a cancelled request keeps the batches before
// it; resolving again is idempotent.
func (s *Store) ResolveRound(ctx context.Context, projectID, roundID int64) (domain.ResolveStats, error) {
	if err := s.checkProjectRound(ctx, projectID, roundID); err != nil {
		return domain.ResolveStats{}, domain.Op("Store.ResolveRound", err)
	}
	ids, err := IDList(ctx, s.read, fmt.Sprintf(readySummaries, "a.round_id = ?")+` ORDER BY a.summary_id`, roundID)
	if err != nil {
		return domain.ResolveStats{}, domain.Op("Store.ResolveRound", err)
	}
	st, err := s.resolveInBatches(ctx, ids, roundResolveBatch, "a.round_id = ?", roundID, false)
	return st, domain.Op("Store.ResolveRound", err)
}

// ResolveSummary resolves one summary if it is ready in some round, and
// does nothing otherwise.
func (s *Store) ResolveSummary(ctx context.Context, summaryID int64) (domain.ResolveStats, error) {
	var st domain.ResolveStats
	err := s.tx(ctx, func(tx *sql.Tx) (err error) {
		st, err = s.resolveIfReady(ctx, tx, summaryID)
		return err
	})
	return st, domain.Op("Store.ResolveSummary", err)
}

// resolveIfReady resolves one summary inside a write transaction if it is
// ready in some round.
func (s *Store) resolveIfReady(ctx context.Context, tx txQuerier, summaryID int64) (domain.ResolveStats, error) {
	ids, err := IDList(ctx, tx, fmt.Sprintf(readySummaries, "a.summary_id = ?"), summaryID)
	if err != nil {
		return domain.ResolveStats{}, err
	}
	return s.resolveSummaries(ctx, tx, ids)
}

// resolveBatch is how many summaries ResolveReady resolves per write
// transaction, so that saves queued behind it wait milliseconds, not
// seconds.
const resolveBatch = 20

// roundResolveBatch is how many summaries ResolveRound resolves per write
// transaction. On the 1.5M-label project's production round, with a
// one-row write every 20 ms beside it, batches of 50 took 15.6 s (29.2 s
// with no gold resolved yet), the writes waiting 11 and 22 ms at the 99th
// percentile; batches of 200 took 13.3 and 26.8 s, the writes 21 and
// 54 ms. Tests change it.
var roundResolveBatch = 50

// resolveBatchDone, when set (by tests), is called after each batch
// resolveInBatches commits.
var resolveBatchDone func()

// ResolveReady resolves the project's ready summaries that have a sentence
// without any gold yet: the ones that became ready since the last
// resolution. The check runs on the read pool, and the resolution in
// transactions of resolveBatch summaries, so that other writers wait for
// one batch at most. Labels
// changed after their assignment was submitted are picked up by
// ResolveRound, which looks at every ready summary.
func (s *Store) ResolveReady(ctx context.Context, projectID int64) (domain.ResolveStats, error) {
	val, err := s.resolveReady(ctx, projectID, false)
	return val, domain.Op("Store.ResolveReady", err)
}

// readyWithoutGold selects the ready summaries of project ?1 that have a
// sentence without any gold row. It looks for those sentences first,
// through the sentences' and gold's keys, and checks the few summaries
// found for readiness: a project whose gold is caught up, as a server
// finds it at every start, has none. Grouping every assignment for
// readiness first read each assignment's row: on the resolved
// 1.5M-label project 0.99-1.18 s against 0.34-0.52 s. With no gold at
// all, every summary is a candidate and this takes 1.07-1.35 s against
// 0.56-0.64 s, before the minutes their resolution then takes.
var readyWithoutGold = `SELECT x.summary_id FROM (SELECT DISTINCT ss.summary_id FROM summaries s CROSS JOIN summary_sentences ss ON ss.summary_id = s.id
		WHERE s.project_id = ?1 AND NOT EXISTS (SELECT 1 FROM gold_sentences g WHERE g.sentence_id = ss.id)) x
	WHERE EXISTS (` + fmt.Sprintf(readySummaries, "a.summary_id = x.summary_id AND r.project_id = ?1") + `)
	ORDER BY x.summary_id`

// resolveReady is ResolveReady; paced, it rests after each batch as long
// as the batch took, leaving the writer to others at least half the time.
func (s *Store) resolveReady(ctx context.Context, projectID int64, paced bool) (domain.ResolveStats, error) {
	ids, err := IDList(ctx, s.read, readyWithoutGold, projectID)
	if err != nil || len(ids) == 0 {
		return domain.ResolveStats{}, err
	}
	return s.resolveInBatches(ctx, ids, resolveBatch, "r.project_id = ?", projectID, paced)
}

// resolveInBatches resolves the summaries ids in transactions of batch
// summaries. Each transaction resolves those of its summaries still ready
// (readySummaries under the condition ready, with its one argument): a
// summary reopened after the list was read is left alone. Paced, it rests
// after each batch as long as the batch took, leaving the writer to others
// at least half the time.
func (s *Store) resolveInBatches(ctx context.Context, ids []int64, batch int, ready string, readyArg any, paced bool) (domain.ResolveStats, error) {
	still := fmt.Sprintf(readySummaries, ready+" AND a.summary_id IN (SELECT value FROM json_each(?))") + ` ORDER BY a.summary_id`
	var st domain.ResolveStats
	for len(ids) > 0 {
		part := ids[:min(batch, len(ids))]
		ids = ids[len(part):]
		t0 := time.Now()
		err := s.tx(ctx, func(tx *sql.Tx) error {
			// Each summary runs the same few statements: prepared once a
			// batch, not for every summary (with the triggers they run),
			// resolving 2,947 summaries of the 1.5M-label project took
			// 0.57-0.59 s instead of 2.57-2.84 s.
			q := &preparedTx{tx: tx}
			defer q.close()
			live, err := IDList(ctx, q, still, readyArg, JSONIDs(part))
			if err != nil {
				return err
			}
			b, err := s.resolveSummaries(ctx, q, live)
			st.Summaries += b.Summaries
			st.Unanimous += b.Unanimous
			st.Pending += b.Pending
			return err
		})
		if err != nil {
			return st, err
		}
		if resolveBatchDone != nil {
			resolveBatchDone()
		}
		if paced && len(ids) > 0 {
			select {
			case <-ctx.Done():
				return st, ctx.Err()
			case <-time.After(time.Since(t0)):
			}
		}
	}
	return st, nil
}

// resolveSummaries applies auto-resolution to each summary, writing only
// what changes.
func (s *Store) resolveSummaries(ctx context.Context, tx txQuerier, ids []int64) (domain.ResolveStats, error) {
	st := domain.ResolveStats{Summaries: len(ids)}
	for _, id := range ids {
		votes, err := loadVotes(ctx, tx, `a.summary_id = ?`, id)
		if err != nil {
			return st, err
		}
		gold, err := summaryGold(ctx, tx, id)
		if err != nil {
			return st, err
		}
		labels := make(map[int64][]domain.SentenceLabel, len(votes))
		for sid, vs := range votes {
			labels[sid] = labelsOf(vs)
		}
		flagged, err := flaggedSentences(ctx, tx, id)
		if err != nil {
			return st, err
		}
		if err := s.resolveLabels(ctx, tx, id, labels, gold, flagged, &st); err != nil {
			return st, err
		}
	}
	return st, nil
}

// resolveLabels resolves one ready summary from its annotators' labels by
// sentence (one per annotator) and the gold its sentences have.
func (s *Store) resolveLabels(ctx context.Context, tx txQuerier, summaryID int64, labels map[int64][]domain.SentenceLabel, gold map[int64]domain.Gold, flagged map[int64]bool, st *domain.ResolveStats) error {
	for sid, ls := range labels {
		want, ok := resolvedGold(sid, ls, gold, flagged[sid])
		if !ok {
			continue
		}
		wrote, err := s.writeGold(ctx, tx, want, true)
		if err != nil {
			return err
		}
		if wrote && want.Provenance == domain.ProvUnanimous {
			st.Unanimous++
		} else if wrote {
			st.Pending++
		}
	}
	return s.deriveSummaryGold(ctx, tx, summaryID)
}

// flaggedSentences lists the sentences of a summary that an annotator
// flagged for the leads (released assignments aside).
func flaggedSentences(ctx context.Context, q querier, summaryID int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	err := queryRows(ctx, q, `SELECT DISTINCT f.sentence_id FROM sentence_flags f JOIN assignments a ON a.id = f.assignment_id
		WHERE a.summary_id = ? AND a.status != 'released'`, func(rows *sql.Rows) error {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		out[id] = true
		return nil
	}, summaryID)
	return out, err
}

// resolvedGold is the gold auto-resolution gives a sentence from its
// annotators' labels (one per annotator), or false when it leaves the
// sentence's gold as it is: gold it does not own, no label, or the same
// gold already there. A sentence an annotator flagged never becomes gold
// by itself, even when every label agrees: it waits for a lead.
func resolvedGold(sentenceID int64, labels []domain.SentenceLabel, gold map[int64]domain.Gold, flagged bool) (domain.Gold, bool) {
	cur, has := gold[sentenceID]
	if has && !cur.Automatic() {
		return domain.Gold{}, false
	}
	t := domain.TallyVotes(labels)
	if t.N == 0 {
		return domain.Gold{}, false
	}
	want := domain.Gold{SentenceID: sentenceID, Provenance: domain.ProvUnresolved, GoldValues: domain.GoldValues{ErrorTypes: []string{}}}
	if v, ok := t.Agreed(); ok && !flagged {
		want.GoldValues, want.Provenance = v, domain.ProvUnanimous
	}
	if has && cur.Provenance == want.Provenance && cur.GoldValues.Equal(want.GoldValues) {
		return domain.Gold{}, false
	}
	return want, true
}

// ResolveAllReady runs ResolveReady for every project, pacing itself so
// that the writer is free at least half the time: the catch-up a server
// does at start, beside its traffic, for summaries that became ready
// before resolution ran at submission.
func (s *Store) ResolveAllReady(ctx context.Context) (domain.ResolveStats, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM projects ORDER BY id`)
	if err != nil {
		return domain.ResolveStats{}, domain.Op("Store.ResolveAllReady", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return domain.ResolveStats{}, domain.Op("Store.ResolveAllReady", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	var st domain.ResolveStats
	for _, id := range ids {
		b, err := s.resolveReady(ctx, id, true)
		st.Summaries += b.Summaries
		st.Unanimous += b.Unanimous
		st.Pending += b.Pending
		if err != nil {
			return st, domain.Op("Store.ResolveAllReady", err)
		}
	}
	return st, domain.Op("Store.ResolveAllReady", rows.Err())
}
