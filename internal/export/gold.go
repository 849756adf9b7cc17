package export

import (
	"context"

	"annotate/internal/domain"
)

// goldColumns are the columns of the gold CSV: one row per sentence.
var goldColumns = []string{
	"document_id", "summary_id", "topic", "model", "sentence_idx", "sentence",
	"label", "error_types", "explanation", "ambiguous", "ambiguity_type", "ambiguity_note",
	"provenance", "decided_by", "decided_at", "note",
	"summary_label", "summary_provenance", "faithfulness", "completeness", "conciseness",
}

// gold writes the gold export. As JSON Lines, each record is a document
// of the native import format holding one summary: the first record of a
// document carries its content and key facts, later ones only its id, so
// that importing the file rebuilds the documents once. As CSV, one row per
// sentence.
func (x *run) gold(ctx context.Context) error {
	var lastDoc int64
	return x.r.EachSummarySentences(ctx, func(s *domain.ExportSummary, sents []domain.ExportSentence) error {
		kept := false
		for _, st := range sents {
			kept = kept || x.keep(goldProv(st.Gold))
		}
		if !kept || !x.goldSince(s, sents) {
			return nil
		}
		scores := s.Scores()
		if x.opt.Format == CSV {
			return x.goldRows(s, sents, scores)
		}
		rec := domain.DocumentInput{ExternalID: s.Document}
		if s.DocumentID != lastDoc {
			lastDoc = s.DocumentID
			if err := x.documentContent(ctx, s, &rec); err != nil {
				return err
			}
		}
		sum := domain.SummaryInput{ExternalID: s.External, Topic: s.Topic, Model: s.Model, Language: s.Language,
			Original: s.Original, EditTypes: s.EditTypes, Scores: &scores}
		if s.Gold != nil && x.keep(s.Gold.Provenance) {
			sum.Gold = x.goldInput(s.Gold)
		}
		for _, st := range sents {
			in := domain.SentenceInput{Text: st.Text, Translation: st.Translation}
			if st.SourceIndex != st.Index {
				in.SourceIndex = st.SourceIndex // the published file's number, where it differs
			}
			if st.Gold != nil && x.keep(st.Gold.Provenance) {
				in.Gold = x.goldInput(st.Gold)
			}
			sum.Sentences = append(sum.Sentences, in)
		}
		rec.Summaries = []domain.SummaryInput{sum}
		return x.out.record(rec)
	})
}

// documentContent fills the document's own fields, units and key facts.
func (x *run) documentContent(ctx context.Context, s *domain.ExportSummary, rec *domain.DocumentInput) error {
	d, err := x.r.Document(ctx, s.DocumentID)
	if err != nil {
		return err
	}
	rec.Kind, rec.Language, rec.Domain, rec.Title = s.DocumentKind, s.DocumentLanguage, s.DocumentDomain, s.DocumentTitle
	if s.DocumentKind == domain.KindDialogue {
		rec.Turns = d.Units
	} else {
		for _, u := range d.Units {
			rec.Sentences = append(rec.Sentences, u.Text)
		}
	}
	rec.KeyFacts = d.KeyFacts
	rec.AnnotationID, err = x.r.AnnotationID(ctx, s.DocumentID)
	return err
}

// goldInput is a stored gold label in the import format.
func (x *run) goldInput(g *domain.ExportGold) *domain.GoldInput {
	return &domain.GoldInput{Label: g.Label, ErrorTypes: g.ErrorTypes, Explanation: g.Explanation, Ambiguous: g.Ambiguous,
		AmbiguityType: g.AmbiguityType, AmbiguityNote: g.AmbiguityNote, Provenance: g.Provenance,
		DecidedBy: x.person(g.DecidedByID, g.DecidedBy), DecidedAt: g.DecidedAt, Note: g.Note}
}

func (x *run) goldRows(s *domain.ExportSummary, sents []domain.ExportSentence, scores domain.SummaryScores) error {
	var sumLabel, sumProv string
	if s.Gold != nil && x.keep(s.Gold.Provenance) {
		sumLabel, sumProv = s.Gold.Label, s.Gold.Provenance
	}
	o := x.out
	for _, st := range sents {
		if !x.keep(goldProv(st.Gold)) {
			continue
		}
		o.str(s.Document)
		o.str(s.External)
		o.str(s.Topic)
		o.str(s.Model)
		o.num(st.Index)
		o.str(st.Text)
		if g := st.Gold; g != nil {
			o.str(g.Label)
			o.list(g.ErrorTypes)
			o.str(g.Explanation)
			o.optFlag(g.Ambiguous)
			o.str(g.AmbiguityType)
			o.str(g.AmbiguityNote)
			o.str(g.Provenance)
			o.str(x.person(g.DecidedByID, g.DecidedBy))
			o.str(g.DecidedAt)
			o.str(g.Note)
		} else {
			o.str("")
			o.list([]string{})
			o.str("")
			o.optFlag(nil)
			o.str("")
			o.str("")
			o.str(NoGold)
			o.str("")
			o.str("")
			o.str("")
		}
		o.str(sumLabel)
		o.str(sumProv)
		o.optFloat(scores.Faithfulness)
		o.optFloat(scores.Completeness)
		o.optFloat(scores.Conciseness)
		if err := o.endRow(); err != nil {
			return err
		}
	}
	return nil
}
