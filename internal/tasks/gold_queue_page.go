package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"

	"annotate/internal/domain"
)

// queueWhere is the gold index condition of a queue filter, with its
// arguments after the project id.
func queueWhere(f domain.QueueFilter) (string, []any) {
	cond, args := ` WHERE project_id = ? AND provenance = 'unresolved'`, []any{}
	if f.RoundID != 0 {
		cond += ` AND instr(rounds, ?) > 0`
		args = append(args, roundsKey([]int64{f.RoundID}))
	}
	if f.Flagged {
		cond += ` AND flagged`
	}
	for i, d := range domain.Dimensions {
		if f.Dimension == d {
			cond += ` AND split & ` + strconv.Itoa(1<<i) + ` != 0`
		}
	}
	return cond, args
}

// AdjudicationQueue reads one page of size sentences of the project's
// adjudication queue, from place from on, under the filter, with the
// counts of the whole queue. It reads the gold index inside a
// FreshSnapshot, so it is exact as of the snapshot.
func (s *Store) AdjudicationQueue(ctx context.Context, projectID int64, f domain.QueueFilter, from, size int) (domain.QueuePage, error) {
	var page domain.QueuePage
	err := s.FreshSnapshot(ctx, func(ctx context.Context) (err error) {
		page, err = adjudicationQueue(ctx, s.reader(ctx), projectID, f, from, size)
		return err
	})
	return page, domain.Op("Store.AdjudicationQueue", err)
}

func adjudicationQueue(ctx context.Context, q querier, projectID int64, f domain.QueueFilter, from, size int) (domain.QueuePage, error) {
	page := domain.QueuePage{Ready: map[int64]int{}}
	// The project's waiting rows counted by what the counts and the
	// filter look at: a few groups per set of rounds, kept by triggers
	// (gold_counts.go).
	err := queryRows(ctx, q, `SELECT rounds, ready, flagged, split, n FROM gold_counts
		WHERE project_id = ? AND provenance = 'unresolved'`, func(rows *sql.Rows) error {
		var key string
		var ready, flagged bool
		var split, n int
		if err := rows.Scan(&key, &ready, &flagged, &split, &n); err != nil {
			return err
		}
		rounds, err := parseRoundsKey(key)
		if err != nil {
			return err
		}
		page.Pending += n
		if flagged {
			page.Flagged += n
		}
		if ready {
			for _, r := range rounds {
				page.Ready[r] += n
			}
		}
		if f.KeepIndexed(rounds, flagged, split) {
			page.Matching += n
		}
		return nil
	}, projectID)
	if err != nil {
		return page, err
	}
	cond, args := queueWhere(f)
	args = append([]any{projectID}, args...)
	size = max(size, 1)
	page.From = max(0, min(from, page.Matching-1))
	page.From -= page.From % size
	ids, err := IDList(ctx, q, `SELECT sentence_id FROM gold_tallies`+cond+`
		ORDER BY top DESC, label_split DESC, summary_id, idx LIMIT ? OFFSET ?`, append(args, size, page.From)...)
	if err != nil {
		return page, err
	}
	page.Items, err = pendingByID(ctx, q, ids)
	return page, err
}

// RoundQueueCounts counts the sentences of a round's summaries waiting in
// the adjudication queue, and how many of them an annotator flagged, from
// gold_counts (grouping the project's waiting rows of the gold index took
// 53 ms a view of a round page on the 1.5M-label project). Behind is how
// many of the project's sentences the counts may be behind: 0 unless the
// gold index could not be brought up to date in time (see FreshSnapshot
// and StaleGoldRows).
func (s *Store) RoundQueueCounts(ctx context.Context, projectID, roundID int64) (waiting, flagged, behind int, err error) {
	err = s.FreshSnapshot(ctx, func(ctx context.Context) error {
		if err := s.reader(ctx).QueryRowContext(ctx, roundQueueCounts, projectID, roundsKey([]int64{roundID})).Scan(&waiting, &flagged); err != nil {
			return err
		}
		behind, err = s.StaleGoldRows(ctx, projectID)
		return err
	})
	return waiting, flagged, behind, domain.Op("Store.RoundQueueCounts", err)
}

// roundQueueCounts sums the counts of a project's waiting gold whose set
// of rounds holds the round (?2 is the round's roundsKey, as queueWhere
// matches it):
// all of it, and the flagged.
const roundQueueCounts = `SELECT coalesce(sum(n), 0), coalesce(sum(n * flagged), 0) FROM gold_counts
	WHERE project_id = ?1 AND provenance = 'unresolved' AND instr(rounds, ?2) > 0`

// pendingByID reads the waiting sentences with these ids, in this order,
// whole: texts, names, tally, rounds and flags.
func pendingByID(ctx context.Context, q querier, ids []int64) ([]domain.PendingSentence, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	byID := map[int64]domain.PendingSentence{}
	var sums []int64
	err = queryRows(ctx, q, `SELECT ss.id, ss.summary_id, ss.idx, ss.text, d.external_id, sm.external_id, sm.topic, g.decided_by IS NOT NULL
		FROM gold_sentences g CROSS JOIN summary_sentences ss ON ss.id = g.sentence_id CROSS JOIN summaries sm ON sm.id = ss.summary_id
		JOIN documents d ON d.id = sm.document_id
		WHERE g.sentence_id IN (SELECT value FROM json_each(?)) AND g.provenance = 'unresolved'`, func(rows *sql.Rows) error {
		var p domain.PendingSentence
		if err := rows.Scan(&p.SentenceID, &p.SummaryID, &p.Index, &p.Text, &p.Document, &p.Summary, &p.Topic, &p.Reopened); err != nil {
			return err
		}
		byID[p.SentenceID] = p
		sums = append(sums, p.SummaryID)
		return nil
	}, string(list))
	if err != nil {
		return nil, err
	}
	tallies, err := loadTallies(ctx, q, `l.sentence_id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, err
	}
	rounds, err := summaryRounds(ctx, q, sums)
	if err != nil {
		return nil, err
	}
	flags, err := summaryFlags(ctx, q, sums)
	if err != nil {
		return nil, err
	}
	out := make([]domain.PendingSentence, 0, len(ids))
	for _, id := range ids {
		p, ok := byID[id]
		if !ok {
			continue
		}
		if p.Tally, ok = tallies[id]; !ok {
			p.Tally = domain.TallyVotes(nil)
		}
		p.Rounds = rounds[p.SummaryID]
		p.Flags = flags[id]
		out = append(out, p)
	}
	return out, nil
}
