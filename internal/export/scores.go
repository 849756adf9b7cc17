package export

import (
	"context"
	"sort"

	"annotate/internal/domain"
)

// scoreColumns are the columns of the scores export. Rows of level
// "summary" come first, one per summary; rows of level "model" follow, one
// per model in name order, with the mean of each score over the model's
// summaries where it is defined and the share of faithful summaries among
// those with a gold label. A summary's label is its summary-level gold, or
// the one its sentences' gold gives once complete (tasks.ExportSummary.Label).
var scoreColumns = []string{
	"level", "document_id", "summary_id", "topic", "model", "sentences", "label", "provenance",
	"faithfulness", "completeness", "conciseness",
	"summaries", "labelled_summaries", "faithful_summaries", "faithful_share",
}

// modelScores accumulates one model's summaries.
type modelScores struct {
	summaries, sentences, labelled, faithful int
	sum                                      [3]float64
	n                                        [3]int
}

func (m *modelScores) add(sc domain.SummaryScores) {
	for i, v := range []*float64{sc.Faithfulness, sc.Completeness, sc.Conciseness} {
		if v != nil {
			m.sum[i] += *v
			m.n[i]++
		}
	}
}

func (m *modelScores) mean(i int) *float64 {
	if m.n[i] == 0 {
		return nil
	}
	v := m.sum[i] / float64(m.n[i])
	return &v
}

// scores writes the per-summary rows as it reads them and keeps one small
// accumulator per model for the model rows. The provenance filter keeps
// summaries by the provenance of their label (NoGold when they have none).
func (x *run) scores(ctx context.Context) error {
	models := map[string]*modelScores{}
	err := x.r.EachSummary(ctx, func(s *domain.ExportSummary) error {
		label, prov := s.Label()
		if prov == "" {
			prov = NoGold
		}
		if !x.keep(prov) {
			return nil
		}
		sc := s.Scores()
		m := models[s.Model]
		if m == nil {
			m = &modelScores{}
			models[s.Model] = m
		}
		m.summaries++
		m.sentences += s.Sentences
		m.add(sc)
		if label != "" {
			m.labelled++
			if label == domain.LabelFaithful {
				m.faithful++
			}
		}
		cells, err := x.summaryScaleCells(ctx, s.ID)
		if err != nil {
			return err
		}
		return x.out.row(append([]any{"summary", s.Document, s.External, s.Topic, s.Model, s.Sentences, label, prov,
			sc.Faithfulness, sc.Completeness, sc.Conciseness, nil, nil, nil, nil}, cells...))
	})
	if err != nil {
		return err
	}
	names := make([]string, 0, len(models))
	for n := range models {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m := models[n]
		var share *float64
		if m.labelled > 0 {
			v := float64(m.faithful) / float64(m.labelled)
			share = &v
		}
		if err := x.out.row(append([]any{"model", nil, nil, nil, n, m.sentences, nil, nil,
			m.mean(0), m.mean(1), m.mean(2), m.summaries, m.labelled, m.faithful, share}, make([]any, len(x.project.Settings.Scales))...)); err != nil {
			return err
		}
	}
	return nil
}
