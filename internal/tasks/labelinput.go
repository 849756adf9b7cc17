package tasks

import (
	"strconv"

	"annotate/internal/domain"
)

// nestedLabels lists the labels given inside documents as records, in
// document order.
func nestedLabels(docs []domain.DocumentInput) []domain.LabelRecord {
	var out []domain.LabelRecord
	for _, d := range docs {
		for i, s := range d.Summaries {
			src := s.Source
			if src == "" {
				src = d.Source
			}
			if src == "" {
				src = "document " + d.ExternalID
			}
			for j, sent := range s.Sentences {
				for k := range sent.Labels {
					out = append(out, domain.LabelRecord{Summary: s.ExternalID, Sentence: j + 1, Label: &sent.Labels[k],
						Source: src + ": " + fieldPath(i, j, k)})
				}
			}
			for k := range s.Labels {
				out = append(out, domain.LabelRecord{Summary: s.ExternalID, SummaryLabel: &s.Labels[k],
					Source: src + ": " + fieldPath(i, -1, k)})
			}
		}
	}
	return out
}

// fieldPath names a nested label: summaries[i].sentences[j].labels[k], or
// summaries[i].labels[k] when j < 0.
func fieldPath(i, j, k int) string {
	if j < 0 {
		return "summaries[" + strconv.Itoa(i) + "].labels[" + strconv.Itoa(k) + "]"
	}
	return "summaries[" + strconv.Itoa(i) + "].sentences[" + strconv.Itoa(j) + "].labels[" + strconv.Itoa(k) + "]"
}
