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
	Label              string   `json:"label,omitempty"`
	ErrorTypes         []string `json:"error_types,omitempty"`
	Explanation        string   `json:"explanation,omitempty"`
	Ambiguous          *bool    `json:"ambiguous,omitempty"`
	AmbiguityType      string   `json:"ambiguity_type,omitempty"`
	AmbiguityNote      string   `json:"ambiguity_note,omitempty"`
	UnsureNote         string   `json:"unsure_note,omitempty"`
	Flag               string   `json:"flag,omitempty"`
	AssistantVisible   bool     `json:"assistant_visible,omitempty"`
	FirstLabel         string   `json:"first_label,omitempty"`
	ChangedAfterReveal bool     `json:"changed_after_reveal,omitempty"`
}

// historyData is the data column of the history row of label l.
func historyData(l *domain.SentenceLabel) string {
	b, _ := json.Marshal(historyLabel{Label: l.Label, ErrorTypes: l.ErrorTypes, Explanation: l.Explanation, Ambiguous: l.Ambiguous,
		AmbiguityType: l.AmbiguityType, AmbiguityNote: l.AmbiguityNote, UnsureNote: l.UnsureNote, Flag: l.Flag,
		AssistantVisible: l.AssistantVisible, FirstLabel: l.FirstLabel, ChangedAfterReveal: l.ChangedAfterReveal})
	return string(b)
}

// historyGold is gold as a row of gold_history keeps it in data: the
// fields of domain.Gold under the same names, empty ones left out, and
// without the sentence and the time, which are the row's own columns
// (sentence_id, created_at). The provenance is always there (webhooks
// select on it). Written in full, data took about 200 bytes a decision.
type historyGold struct {
	Label         string   `json:"label,omitempty"`
	ErrorTypes    []string `json:"error_types,omitempty"`
	Explanation   string   `json:"explanation,omitempty"`
	Ambiguous     *bool    `json:"ambiguous,omitempty"`
	AmbiguityType string   `json:"ambiguity_type,omitempty"`
	AmbiguityNote string   `json:"ambiguity_note,omitempty"`
	Provenance    string   `json:"provenance"`
	DecidedBy     int64    `json:"decided_by,omitempty"`
	Note          string   `json:"note,omitempty"`
}

// goldHistoryData is the data column of the history row of gold g.
func goldHistoryData(g *domain.Gold) string {
	b, _ := json.Marshal(historyGold{Label: g.Label, ErrorTypes: g.ErrorTypes, Explanation: g.Explanation, Ambiguous: g.Ambiguous,
		AmbiguityType: g.AmbiguityType, AmbiguityNote: g.AmbiguityNote, Provenance: g.Provenance, DecidedBy: g.DecidedBy, Note: g.Note})
	return string(b)
}
