package export

import (
	"context"

	"annotate/internal/tasks"
)

// rawColumns are the columns of the raw export: one row per sentence ×
// assignment.
var rawColumns = []string{
	"round", "annotator", "assignment_status", "document_id", "summary_id", "topic", "model", "sentence_idx", "sentence",
	"labelled", "label", "error_types", "explanation", "ambiguous", "ambiguity_type", "ambiguity_note", "unsure_note",
	"first_label", "assistant_visible", "changed_after_reveal", "assistant_label", "followed_assistant", "updated_at",
	"started_at", "submitted_at", "active_seconds", "seconds_per_sentence",
	"relevance", "non_summary", "topic_category", "comment",
	"gold_label", "gold_provenance",
	"flag", "skip_reason",
}

// raw writes every annotator's label on every sentence of the summaries
// in scope, including sentences an annotator has not labelled yet.
func (x *run) raw(ctx context.Context) error {
	scales := len(x.project.Settings.Scales) > 0
	return x.r.EachCells(ctx, func(s *tasks.ExportCells) error {
		var scores map[int64]map[tasks.ScaleKey]string
		if scales {
			var err error
			if scores, err = x.r.Scores(ctx, s.ID); err != nil {
				return err
			}
		}
		for i := range s.Labels {
			l := &s.Labels[i]
			prov := l.GoldProvenance
			if !x.keep(prov) || !x.newer(l.UpdatedAt, l.SubmittedAt) {
				continue
			}
			if prov == "" {
				prov = NoGold
			}
			row := []any{
				l.Round, x.person(l.UserID, l.Username), l.Status, s.Document, s.External, s.Topic, s.Model, l.SentenceIndex, sentenceText(s, l.SentenceID),
				l.Labelled, l.Label, l.ErrorTypes, l.Explanation, l.Ambiguous, l.AmbiguityType, l.AmbiguityNote, l.UnsureNote,
				l.FirstLabel, l.AssistantVisible, l.ChangedAfterReveal, l.AssistantLabel, followed(l), l.UpdatedAt,
				l.StartedAt, l.SubmittedAt, l.ActiveSeconds, perSentence(l.ActiveSeconds, len(s.Sentences)),
				l.Relevance, l.NonSummary, l.TopicCategory, l.Comment,
				l.GoldLabel, prov,
				l.Flag, l.SkipReason,
			}
			if x.studies != nil {
				m := x.studies[l.UserID]
				cond, ok := x.conditions[l.AssignmentID]
				if !ok {
					cond = m.Condition
				}
				row = append(row, m.Study, cond, x.checks[l.AssignmentID], m.Excluded)
			}
			if scales {
				sent, sum := x.scoresOf(scores[l.AssignmentID], l.SentenceID)
				row = append(row, sent, sum)
			}
			if err := x.out.row(row); err != nil {
				return err
			}
		}
		return nil
	})
}

// sentenceText is the text of a sentence of s.
func sentenceText(s *tasks.ExportCells, id int64) string {
	for _, st := range s.Sentences {
		if st.ID == id {
			return st.Text
		}
	}
	return ""
}

// followed says whether the annotator's label is the assistant's: nil when
// the assistant was not visible, had no label, or the sentence is not
// labelled.
func followed(l *tasks.ExportLabel) *bool {
	if !l.AssistantVisible || l.AssistantLabel == "" || l.Label == "" {
		return nil
	}
	v := l.Label == l.AssistantLabel
	return &v
}

// perSentence is an assignment's active time shared over its summary's
// sentences; nil before any time was recorded.
func perSentence(seconds, sentences int) *float64 {
	if seconds <= 0 || sentences == 0 {
		return nil
	}
	v := float64(seconds) / float64(sentences)
	return &v
}
