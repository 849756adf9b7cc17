package tasks

import (
	"encoding/json"

	"annotate/internal/domain"
)

// historyLabel is a sentence label as a row of sentence_label_history
// keeps it in data: the fields of domain.SentenceLabel under the same
// names, empty ones left out, and without the sentence and the time,
// which are the row's own columns (sentence_id, created_at). Written in
// full, with every field named, data took 249 bytes a label and more than
// half of what importing labelled work writes; a label with nothing but
// its value takes 20. Rows written before hold every field; both decode
// into domain.SentenceLabel alike.
type historyLabel struct {
	historyValues
	UnsureNote         string `json:"unsure_note,omitempty"`
	Flag               string `json:"flag,omitempty"`
	AssistantVisible   bool   `json:"assistant_visible,omitempty"`
	FirstLabel         string `json:"first_label,omitempty"`
	ChangedAfterReveal bool   `json:"changed_after_reveal,omitempty"`
}

// historyValues are the fields a label and a gold decision share, as both
// histories keep them (embedded, they stand beside the others in data).
type historyValues struct {
	Label         string   `json:"label,omitempty"`
	ErrorTypes    []string `json:"error_types,omitempty"`
	Explanation   string   `json:"explanation,omitempty"`
	Ambiguous     *bool    `json:"ambiguous,omitempty"`
	AmbiguityType string   `json:"ambiguity_type,omitempty"`
	AmbiguityNote string   `json:"ambiguity_note,omitempty"`
}

// historyData is the data column of the history row of label l.
func historyData(l *domain.SentenceLabel) string {
	b, _ := json.Marshal(historyLabel{historyValues: historyValues{Label: l.Label, ErrorTypes: l.ErrorTypes, Explanation: l.Explanation,
		Ambiguous: l.Ambiguous, AmbiguityType: l.AmbiguityType, AmbiguityNote: l.AmbiguityNote},
		UnsureNote: l.UnsureNote, Flag: l.Flag, AssistantVisible: l.AssistantVisible, FirstLabel: l.FirstLabel, ChangedAfterReveal: l.ChangedAfterReveal})
	return string(b)
}

// historyGold is gold as a row of gold_history keeps it in data: the
// fields of domain.Gold under the same names, empty ones left out, and
// without the sentence and the time, which are the row's own columns
// (sentence_id, created_at). The provenance is always there (webhooks
// select on it). Written in full, data took about 200 bytes a decision.
type historyGold struct {
	historyValues
	Provenance string `json:"provenance"`
	DecidedBy  int64  `json:"decided_by,omitempty"`
	Note       string `json:"note,omitempty"`
}

// goldHistoryData is the data column of the history row of gold g.
func goldHistoryData(g *domain.Gold) string {
	v := g.GoldValues
	b, _ := json.Marshal(historyGold{historyValues: historyValues{Label: v.Label, ErrorTypes: v.ErrorTypes, Explanation: v.Explanation,
		Ambiguous: v.Ambiguous, AmbiguityType: v.AmbiguityType, AmbiguityNote: v.AmbiguityNote},
		Provenance: g.Provenance, DecidedBy: g.DecidedBy, Note: g.Note})
	return string(b)
}
