package export

import (
	"context"
	"strconv"
	"strings"

	"annotate/internal/domain"
)

// tofuColumns are the columns of TofuEval's meetingbank_factual_eval CSVs,
// in their order, so that scripts written for those files read ours.
var tofuColumns = []string{"doc_id", "annotation_id", "topic", "model_name", "sent_idx", "summ_sent", "sent_label", "exp", "type"}

// tofueval writes one row per sentence whose gold label is faithful
// ("yes") or unfaithful ("no"); borderline, unresolved and missing gold
// have no TofuEval form and are left out. Error types are written by the
// names of the project's taxonomy, joined by ", " as TofuEval does;
// annotation_id is the document's id in the study it was imported from
// (TofuEval's own annotation_id), else its number in this database.
func (x *run) tofueval(ctx context.Context) error {
	names := map[string]string{}
	for _, t := range x.project.Settings.ErrorTaxonomy() {
		names[t.Code] = t.Name
	}
	return x.r.EachSummarySentences(ctx, func(s *domain.ExportSummary, sents []domain.ExportSentence) error {
		annotation, err := x.r.AnnotationID(ctx, s.DocumentID)
		if err != nil {
			return err
		}
		if annotation == "" {
			annotation = strconv.FormatInt(s.DocumentID, 10)
		}
		for _, st := range sents {
			g := st.Gold
			if g == nil || !x.keep(g.Provenance) {
				continue
			}
			var label string
			switch g.Label {
			case domain.LabelFaithful:
				label = "yes"
			case domain.LabelUnfaithful:
				label = "no"
			default:
				continue
			}
			types := make([]string, len(g.ErrorTypes))
			for i, c := range g.ErrorTypes {
				types[i] = c
				if n, ok := names[c]; ok {
					types[i] = n
				}
			}
			row := []any{s.Document, annotation, s.Topic, s.Model, st.SourceIndex, st.Text, label, g.Explanation, strings.Join(types, ", ")}
			if err := x.out.row(row); err != nil {
				return err
			}
		}
		return nil
	})
}
