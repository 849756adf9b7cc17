package domain

// ImportedRound is the round annotators' labels go into when their import
// names none.
const ImportedRound = "imported"

// SentenceLabelInput is one annotator's label on one sentence, arriving
// with imported data: a gold label's fields plus who gave it and in which
// round.
type SentenceLabelInput struct {
	// Annotator is an account name or an external worker id; an unknown
	// one becomes an imported account that cannot log in.
	Annotator string `json:"annotator"`
	// Round names the round; ImportedRound when empty.
	Round         string   `json:"round,omitempty"`
	Label         string   `json:"label,omitempty"`
	ErrorTypes    []string `json:"error_types,omitempty"`
	Explanation   string   `json:"explanation,omitempty"`
	Ambiguous     *bool    `json:"ambiguous,omitempty"`
	AmbiguityType string   `json:"ambiguity_type,omitempty"`
	AmbiguityNote string   `json:"ambiguity_note,omitempty"`
	UnsureNote    string   `json:"unsure_note,omitempty"`
	// Scores are values on the project's sentence-level scales, by scale
	// name: a number for an integer scale, a string for a category.
	Scores map[string]any `json:"scores,omitempty"`
}

// SummaryLabelInput is one annotator's summary-level label, arriving with
// imported data.
type SummaryLabelInput struct {
	Annotator     string `json:"annotator"`
	Round         string `json:"round,omitempty"`
	Relevance     *int   `json:"relevance,omitempty"` // 1..5
	TopicCategory string `json:"topic_category,omitempty"`
	NonSummary    bool   `json:"non_summary,omitempty"`
	Comment       string `json:"comment,omitempty"`
	// Scores are values on the project's summary-level scales.
	Scores map[string]any `json:"scores,omitempty"`
}

// LabelRecord is one imported label located by the external id of its
// summary and, for a sentence label, the sentence's 1-based index. The
// summary may come with the same import or be in the project already.
type LabelRecord struct {
	Summary string
	// Sentence is the 1-based index of the sentence; 0 for a summary label.
	Sentence int
	// Label is set for a sentence label, SummaryLabel for a summary label.
	Label        *SentenceLabelInput
	SummaryLabel *SummaryLabelInput
	// Source says where the label came from ("file:line: field"), for
	// messages.
	Source string
}

// Annotator and round name who gave the record and where.
func (r *LabelRecord) Annotator() (user, round string) {
	if r.Label != nil {
		user, round = r.Label.Annotator, r.Label.Round
	} else if r.SummaryLabel != nil {
		user, round = r.SummaryLabel.Annotator, r.SummaryLabel.Round
	}
	if round == "" {
		round = ImportedRound
	}
	return user, round
}
