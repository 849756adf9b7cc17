package export

import (
	"context"

	"annotate/internal/domain"
)

// staleColumns are the columns of the stale labels export: one row per
// label given on a text that a re-import replaced.
var staleColumns = []string{
	"round", "annotator", "assignment_status", "document_id", "summary_id", "sentence_idx", "sentence",
	"label", "error_types", "explanation", "ambiguous", "ambiguity_type", "ambiguity_note", "unsure_note",
	"updated_at", "reason", "replaced_at",
}

// stale writes the labels kept when a re-import replaced the text they
// were given on, each with that text.
func (x *run) stale(ctx context.Context) error {
	return x.r.EachStaleLabel(ctx, x.opt.Round, func(l *domain.StaleLabel) error {
		d := l.Label
		types := d.ErrorTypes
		if types == nil {
			types = []string{}
		}
		return x.out.row([]any{l.Round, x.person(l.UserID, l.Username), d.AssignmentStatus, l.Document, l.Summary, l.Sentence, l.SentenceText,
			d.Label, types, d.Explanation, d.Ambiguous, d.AmbiguityType, d.AmbiguityNote, d.UnsureNote,
			l.SavedAt, l.Reason, l.ReplacedAt})
	})
}
