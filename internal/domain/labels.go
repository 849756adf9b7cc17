package domain

import (
	"fmt"
	"slices"
	"strings"
)

// SentenceLabel is one annotator's label on one summary sentence.
type SentenceLabel struct {
	SentenceID    int64    `json:"sentence_id"`
	Label         string   `json:"label"`
	ErrorTypes    []string `json:"error_types"`
	Explanation   string   `json:"explanation"`
	Ambiguous     *bool    `json:"ambiguous"`
	AmbiguityType string   `json:"ambiguity_type"`
	AmbiguityNote string   `json:"ambiguity_note"`
	UnsureNote    string   `json:"unsure_note"`
	// Flag is the annotator's comment flagging the sentence for the leads
	// (a bad split, a broken source, a question); empty when not flagged.
	Flag string `json:"flag,omitempty"`
	// AssistantVisible says whether the assistant's panel was shown when
	// this label was saved.
	AssistantVisible bool `json:"assistant_visible"`
	// FirstLabel is the label given before the assistant was revealed.
	FirstLabel string `json:"first_label,omitempty"`
	// ChangedAfterReveal is true when the label now differs from the one
	// given before the assistant was revealed.
	ChangedAfterReveal bool   `json:"changed_after_reveal"`
	UpdatedAt          string `json:"updated_at,omitempty"`
}

// DropInapplicable clears what the label does not call for, so that an
// explanation or error types written for an earlier "unfaithful" never
// stay (and are never exported) with a faithful label, nor an ambiguity
// type or description with a sentence that is not ambiguous.
func (l *SentenceLabel) DropInapplicable() {
	if l.Label != LabelUnfaithful {
		l.ErrorTypes = nil
		l.Explanation = ""
	}
	if l.Ambiguous == nil || !*l.Ambiguous {
		l.AmbiguityType = ""
		l.AmbiguityNote = ""
	}
}

// Validate checks a label's values against the project's schema. Empty
// fields are allowed: a label is saved as it is typed and checked for
// completeness only on submit.
func (l *SentenceLabel) Validate(set Settings) error {
	switch l.Label {
	case "", LabelFaithful, LabelUnfaithful:
	case LabelBorderline:
		if !set.Borderline {
			return Errorf(EInvalid, "this project does not use the borderline label")
		}
	default:
		return Errorf(EInvalid, "label %q is not faithful or unfaithful", l.Label)
	}
	codes := map[string]bool{}
	for _, t := range set.ErrorTaxonomy() {
		codes[t.Code] = true
	}
	l.ErrorTypes = slices.Compact(slices.Sorted(slices.Values(l.ErrorTypes)))
	for _, c := range l.ErrorTypes {
		if !codes[c] {
			return Errorf(EInvalid, "unknown error type %q", c)
		}
	}
	if l.AmbiguityType != "" {
		if _, ok := AmbiguityType(l.AmbiguityType); !ok {
			return Errorf(EInvalid, "unknown ambiguity type %q", l.AmbiguityType)
		}
	}
	for _, f := range []struct{ name, v string }{{"explanation", l.Explanation}, {"ambiguity description", l.AmbiguityNote}, {"unsure note", l.UnsureNote}, {"flag comment", l.Flag}} {
		if err := CheckText(f.name, f.v, MaxNoteLen, true); err != nil {
			return Op("SentenceLabel.Validate", err)
		}
	}
	return nil
}

// Missing lists what a label still lacks before its assignment can be
// submitted, in words for the annotator; nil when complete.
func (l *SentenceLabel) Missing(set Settings) []string {
	var out []string
	if l.Label == "" {
		return []string{"faithfulness label"}
	}
	if l.Label == LabelUnfaithful {
		if set.ErrorTypes && len(l.ErrorTypes) == 0 {
			out = append(out, "error type")
		}
		if set.Explanation && strings.TrimSpace(l.Explanation) == "" {
			out = append(out, "explanation")
		}
	}
	if set.Ambiguity && l.Ambiguous != nil && *l.Ambiguous {
		if l.AmbiguityType == "" {
			out = append(out, "ambiguity type")
		}
		if strings.TrimSpace(l.AmbiguityNote) == "" {
			out = append(out, "ambiguity description")
		}
	}
	return out
}

// AssistantShown reports whether the labelling page shows the assistant's
// panel for a sentence whose saved label is prev (nil for none) under the
// visibility mode.
func AssistantShown(mode string, prev *SentenceLabel) bool {
	switch mode {
	case AssistAlways:
		return true
	case AssistAfterLabel:
		return prev != nil && prev.Label != ""
	}
	return false
}

// The relevance scale of a summary label: RelevanceMin to RelevanceMax.
const (
	RelevanceMin = 1
	RelevanceMax = 5
)

// SummaryLabel is an annotator's judgement of a whole summary.
type SummaryLabel struct {
	Relevance     int    `json:"relevance"` // RelevanceMin..RelevanceMax, 0 = not given
	NonSummary    bool   `json:"non_summary"`
	TopicCategory string `json:"topic_category"` // "", main or marginal
	Comment       string `json:"comment"`
}

// Validate checks the values of a summary label.
func (l SummaryLabel) Validate() error {
	if l.Relevance != 0 && (l.Relevance < RelevanceMin || l.Relevance > RelevanceMax) {
		return Errorf(EInvalid, "relevance must be between %d and %d", RelevanceMin, RelevanceMax)
	}
	switch l.TopicCategory {
	case "", "main", "marginal":
	default:
		return Errorf(EInvalid, "topic category must be main or marginal")
	}
	if err := CheckText("comment", l.Comment, MaxNoteLen, true); err != nil {
		return Op("SummaryLabel.Validate", err)
	}
	return nil
}

// Incomplete is what stops an assignment from being submitted.
type Incomplete struct {
	Items []string
}

// Error lists what is missing.
func (e *Incomplete) Error() string {
	return fmt.Sprintf("not complete: %d items missing", len(e.Items))
}

// StaleLabel is an annotator's sentence label given on a text that a
// re-import later replaced (--update --relabel), kept with that text.
type StaleLabel struct {
	Document, Summary string
	Sentence          int    // the sentence's number, as exports give it
	SentenceText      string // the text the label was given on
	UserID            int64
	Username          string
	Round             string
	Label             StaleLabelData
	SavedAt           string // when the label was last saved
	Reason            string // what changed
	ReplacedAt        string // when the re-import replaced the text
}

// StaleLabelData is the label itself, as it stood.
type StaleLabelData struct {
	Label            string   `json:"label"`
	ErrorTypes       []string `json:"error_types"`
	Explanation      string   `json:"explanation"`
	Ambiguous        *bool    `json:"ambiguous"`
	AmbiguityType    string   `json:"ambiguity_type"`
	AmbiguityNote    string   `json:"ambiguity_note"`
	UnsureNote       string   `json:"unsure_note"`
	AssignmentStatus string   `json:"status"`
}
