package web

import (
	"context"
	"sort"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// adjScales shows the annotators' values on the project's rating scales,
// one row per summary-level scale and per sentence of a sentence-level
// one, annotators in the order of the vote cards.
func (s *Server) adjScales(ctx context.Context, set domain.Settings, sum *domain.Summary, votes map[int64][]domain.Vote, who map[int64]string) ([]templates.AdjScaleRow, error) {
	if len(set.Scales) == 0 {
		return nil, nil
	}
	type voter struct {
		user, assignment int64
		round            string
	}
	seen := map[int64]bool{}
	var voters []voter
	for _, vs := range votes {
		for _, v := range vs {
			if !seen[v.UserID] {
				seen[v.UserID] = true
				voters = append(voters, voter{v.UserID, v.AssignmentID, v.RoundName})
			}
		}
	}
	sort.Slice(voters, func(i, j int) bool { return voters[i].user < voters[j].user })
	scores := make([]map[domain.ScaleKey]string, len(voters))
	for i, v := range voters {
		var err error
		if scores[i], err = s.store.ScaleScores(ctx, v.assignment); err != nil {
			return nil, err
		}
	}
	row := func(title string, index int, key domain.ScaleKey) templates.AdjScaleRow {
		r := templates.AdjScaleRow{Title: title, Sentence: index}
		for i, v := range voters {
			val := scores[i][key]
			if val == "" {
				val = "—"
			}
			r.Values = append(r.Values, templates.AdjScaleValue{Annotator: who[v.user], Round: v.round, Value: val})
		}
		return r
	}
	var out []templates.AdjScaleRow
	for _, sc := range set.Scales {
		if sc.Level == domain.LevelSummary {
			out = append(out, row(sc.Label(), 0, domain.ScaleKey{Scale: sc.Name}))
			continue
		}
		for _, x := range sum.Sentences {
			out = append(out, row(sc.Label(), x.Index, domain.ScaleKey{Sentence: x.ID, Scale: sc.Name}))
		}
	}
	return out, nil
}
