package export

import (
	"context"
	"slices"
	"sort"
	"strconv"

	"annotate/internal/domain"
)

// Columns the raw and scores exports add when the project defines rating
// scales (see tasks.Scale).
const (
	colSentenceScores = "sentence_scores"
	colSummaryScores  = "summary_scores"
)

// Columns the raw export adds when the project has crowd studies: the
// study a participant's label belongs to and the assistance condition
// they were in; empty for the project's own annotators.
const (
	colStudy     = "study"
	colCondition = "condition"
	colCheck     = "attention_check" // the summary was an attention check
	colExcluded  = "excluded"        // the participant was excluded
)

// columns lists the export's columns: the kind's own, and the scale
// columns for a project with scales. The raw export gains
// sentence_scores and summary_scores (objects of scale name to value);
// the scores export gains one column per scale, the mean of the
// submitted values (integer scales) or the most frequent category.
func (e *Export) columns() []string {
	cols := columnsOf(e.opt.What)
	if e.opt.What == Raw && e.studies != nil {
		cols = append(slices.Clone(cols), colStudy, colCondition, colCheck, colExcluded)
	}
	scales := e.project.Settings.Scales
	if len(scales) == 0 {
		return cols
	}
	switch e.opt.What {
	case Raw:
		return append(slices.Clone(cols), colSentenceScores, colSummaryScores)
	case Scores:
		cols = slices.Clone(cols)
		for _, sc := range scales {
			cols = append(cols, "scale:"+sc.Name)
		}
	}
	return cols
}

// scaleValue turns a stored value into what an export writes: a number
// for an integer scale.
func (x *run) scaleValue(name, v string) any {
	if sc, ok := x.project.Settings.Scale(name); ok && sc.Numeric() {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return v
}

// scoresOf splits an assignment's scores into those of one sentence and
// those of the summary.
func (x *run) scoresOf(all map[domain.ScaleKey]string, sentenceID int64) (sentence, summary map[string]any) {
	sentence, summary = map[string]any{}, map[string]any{}
	for k, v := range all {
		switch k.Sentence {
		case sentenceID:
			sentence[k.Scale] = x.scaleValue(k.Scale, v)
		case 0:
			summary[k.Scale] = x.scaleValue(k.Scale, v)
		}
	}
	return sentence, summary
}

// summaryScaleCells gives the scores export's scale columns for a summary:
// per scale, the mean of the submitted values over assignments and (for a
// sentence-level scale) sentences, or the most frequent category (ties
// to the first in the scale's order); nil when nobody gave one.
func (x *run) summaryScaleCells(ctx context.Context, summaryID int64) ([]any, error) {
	scales := x.project.Settings.Scales
	if len(scales) == 0 {
		return nil, nil
	}
	all, err := x.r.SubmittedScores(ctx, summaryID)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(scales))
	for i, sc := range scales {
		var vals []string
		for _, scores := range all {
			for k, v := range scores {
				if k.Scale == sc.Name {
					vals = append(vals, v)
				}
			}
		}
		if len(vals) == 0 {
			continue
		}
		if sc.Numeric() {
			sum := 0.0
			for _, v := range vals {
				n, _ := strconv.Atoi(v)
				sum += float64(n)
			}
			out[i] = sum / float64(len(vals))
			continue
		}
		count := map[string]int{}
		for _, v := range vals {
			count[v]++
		}
		cats := slices.Clone(sc.Categories)
		sort.SliceStable(cats, func(a, b int) bool { return count[cats[a]] > count[cats[b]] })
		out[i] = cats[0]
	}
	return out, nil
}
