package tasks

import (
	"context"
	"encoding/json"

	"annotate/internal/domain"
)

// tallySelect reads what a tally weighs of each vote, over the same rows
// and in the same order as votesSelect: each annotator counts once, with
// the label of their most recently submitted assignment.
const tallySelect = `SELECT l.sentence_id, a.user_id, l.label, l.error_types, l.ambiguous, l.ambiguity_type
	FROM sentence_labels l
	JOIN assignments a ON a.id = l.assignment_id AND a.status = 'submitted'`

const tallyOrder = ` ORDER BY l.sentence_id, a.user_id, a.submitted_at, a.id`

// loadTallies returns the tally of the votes on each sentence the
// condition selects: TallyVotes of loadVotes' votes, without reading what
// a tally does not weigh (names, rounds, explanations, notes, flags). The
// adjudication queue tallies every waiting sentence of a project on each
// view, so this is the read it waits on.
func loadTallies(ctx context.Context, q querier, cond string, args ...any) (map[int64]domain.Tally, error) {
	rows, err := q.QueryContext(ctx, tallySelect+` WHERE `+cond+tallyOrder, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]domain.Tally{}
	var cur int64
	var users []int64
	var labels []domain.SentenceLabel
	flush := func() {
		if len(labels) > 0 {
			out[cur] = domain.TallyVotes(labels)
		}
		users, labels = users[:0], labels[:0]
	}
	for rows.Next() {
		var sid, uid int64
		var l domain.SentenceLabel
		var types string
		var amb *bool
		if err := rows.Scan(&sid, &uid, &l.Label, &types, &amb, &l.AmbiguityType); err != nil {
			return nil, err
		}
		if sid != cur {
			flush()
			cur = sid
		}
		l.Ambiguous = amb
		if l.Label == domain.LabelUnfaithful && types != "[]" && types != "" {
			if err := json.Unmarshal([]byte(types), &l.ErrorTypes); err != nil {
				return nil, err
			}
		}
		if n := len(users); n > 0 && users[n-1] == uid {
			labels[n-1] = l // a later submission of the same annotator
			continue
		}
		users = append(users, uid)
		labels = append(labels, l)
	}
	flush()
	return out, rows.Err()
}
