package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"sort"

	"annotate/internal/domain"
)

// PendingSentences lists the project's sentences waiting for adjudication,
// most split first (see Tally.Score), then by summary and sentence.
func (s *Store) PendingSentences(ctx context.Context, projectID int64) ([]domain.PendingSentence, error) {
	val, err := pendingSentences(ctx, s.reader(ctx), projectID)
	return val, domain.Op("Store.PendingSentences", err)
}

// The waiting sentences are read starting from the partial index of
// unresolved gold (CROSS JOIN fixes the order in SQLite), not by walking
// every sentence of the project.
const pendingCond = `SELECT g.sentence_id FROM gold_sentences g CROSS JOIN summary_sentences ss ON ss.id = g.sentence_id
	CROSS JOIN summaries sm ON sm.id = ss.summary_id WHERE sm.project_id = ? AND g.provenance = 'unresolved'`

func pendingSentences(ctx context.Context, q querier, projectID int64) ([]domain.PendingSentence, error) {
	ids, err := IDList(ctx, q, pendingCond, projectID)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	out, err := pendingByID(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		at, al := a.Tally.Score()
		bt, bl := b.Tally.Score()
		switch {
		case at != bt:
			return at > bt
		case al != bl:
			return al > bl
		case a.SummaryID != b.SummaryID:
			return a.SummaryID < b.SummaryID
		}
		return a.Index < b.Index
	})
	return out, nil
}

// summaryFlags maps each sentence of the summaries to the notes of the
// annotators who flagged it (released assignments aside), reading from the
// summaries' assignments.
func summaryFlags(ctx context.Context, q querier, summaries []int64) (map[int64][]string, error) {
	ids, err := json.Marshal(summaries)
	if err != nil {
		return nil, err
	}
	out := map[int64][]string{}
	err = queryRows(ctx, q, `SELECT f.sentence_id, f.note FROM assignments a CROSS JOIN sentence_flags f ON f.assignment_id = a.id
		WHERE a.summary_id IN (SELECT value FROM json_each(?)) AND a.status != 'released' ORDER BY f.sentence_id, a.user_id`, func(rows *sql.Rows) error {
		var id int64
		var note string
		if err := rows.Scan(&id, &note); err != nil {
			return err
		}
		out[id] = append(out[id], note)
		return nil
	}, string(ids))
	return out, err
}

// summaryRounds maps each of the summaries to the rounds that gave it out
// (released assignments aside); other summaries are not read.
func summaryRounds(ctx context.Context, q querier, summaries []int64) (map[int64][]int64, error) {
	ids, err := json.Marshal(summaries)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT a.summary_id, a.round_id FROM assignments a
		WHERE a.summary_id IN (SELECT value FROM json_each(?)) AND a.status != 'released' ORDER BY a.summary_id, a.round_id`, string(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]int64{}
	for rows.Next() {
		var sum, round int64
		if err := rows.Scan(&sum, &round); err != nil {
			return nil, err
		}
		out[sum] = append(out[sum], round)
	}
	return out, rows.Err()
}

// RoundGoldCounts returns the gold counts of each round of a project,
// oldest round first. A summary given out in two rounds counts in both.
func (s *Store) RoundGoldCounts(ctx context.Context, projectID int64) ([]domain.RoundGold, error) {
	var out []domain.RoundGold
	err := s.FreshSnapshot(ctx, func(ctx context.Context) (err error) {
		out, err = s.roundGoldCounts(ctx, projectID)
		return err
	})
	return out, domain.Op("Store.RoundGoldCounts", err)
}

func (s *Store) roundGoldCounts(ctx context.Context, projectID int64) ([]domain.RoundGold, error) {
	rounds, err := s.Rounds(ctx, projectID)
	if err != nil {
		return nil, err
	}
	q := s.reader(ctx)
	sentences, err := s.roundSentences(ctx, q, projectID)
	if err != nil {
		return nil, err
	}
	out := make([]domain.RoundGold, len(rounds))
	at := map[int64]int{} // round id to its place in out
	for i, r := range rounds {
		out[i].Round = r
		out[i].Sentences = sentences[r.ID]
		out[i].Waiting = out[i].Sentences
		at[r.ID] = i
	}
	// The project's gold by the rounds its summary is in and provenance,
	// from the gold index's counts (gold_counts.go): as many groups as
	// sets of rounds.
	err = queryRows(ctx, q, `SELECT rounds, provenance, sum(n) FROM gold_counts
			WHERE project_id = ? GROUP BY rounds, provenance`, func(rows *sql.Rows) error {
		var key, provenance string
		var n int
		if err := rows.Scan(&key, &provenance, &n); err != nil {
			return err
		}
		ids, err := parseRoundsKey(key)
		if err != nil {
			return err
		}
		for _, r := range ids {
			i, ok := at[r]
			if !ok {
				continue
			}
			g := &out[i]
			switch provenance {
			case domain.ProvUnanimous:
				g.Unanimous += n
			case domain.ProvMajority:
				g.Majority += n
			case domain.ProvAdjudicated:
				g.Adjudicated += n
			case domain.ProvImported:
				g.Imported += n
			case domain.ProvUnresolved:
				g.Pending += n
			}
			g.Waiting -= n
		}
		return nil
	}, projectID)
	return out, err
}
