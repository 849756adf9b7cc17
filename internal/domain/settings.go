package domain

import (
	"fmt"
)

// Assistant visibility modes.
const (
	AssistAlways     = "always"
	AssistAfterLabel = "after_first_label"
	AssistNever      = "never"
)

// Settings is a project's label schema: which dimensions annotators see
// and the taxonomies they choose from. It is stored as JSON so that new
// dimensions add a field, not a column.
type Settings struct {
	Faithfulness  bool `json:"faithfulness"`
	ErrorTypes    bool `json:"error_types"`
	Explanation   bool `json:"explanation"`
	Borderline    bool `json:"borderline"`
	Ambiguity     bool `json:"ambiguity"`
	KeyFacts      bool `json:"key_facts"`
	Relevance     bool `json:"relevance"`
	TopicCategory bool `json:"topic_category"`
	UnsureNote    bool `json:"unsure_note"`
	// ErrorPreset names one of ErrorPresets, or "custom" for CustomErrors.
	ErrorPreset  string         `json:"error_preset"`
	CustomErrors []TaxonomyType `json:"custom_errors,omitempty"`
	// AssistantVisibility is one of AssistAlways, AssistAfterLabel, AssistNever.
	AssistantVisibility string `json:"assistant_visibility"`
	// AssistVerdictOnly, never stored, is set on the settings a page uses
	// for an assignment whose own assistance shows the Adjudicator's
	// verdict alone (see Assistance).
	AssistVerdictOnly bool `json:"-"`
	// AnonymousAdjudication hides annotator names from adjudicators.
	AnonymousAdjudication bool `json:"anonymous_adjudication"`
	// FeedbackGold shows gold labels and their explanations on the
	// feedback annotators read after a calibration round is closed.
	FeedbackGold bool `json:"feedback_gold"`
	// FeedbackNames shows the other annotators' names on that feedback;
	// otherwise they appear under their pseudonyms.
	FeedbackNames bool `json:"feedback_names"`
	// Scales are the project's own rating dimensions (see Scale).
	Scales []Scale `json:"scales,omitempty"`
}

// DefaultSettings is the label schema of a new project: the TofuEval
// protocol with ambiguity, key facts and relevance, and the assistant shown
// after the annotator's first label (to limit anchoring); calibration
// feedback shows gold and pseudonyms.
func DefaultSettings() Settings {
	return Settings{
		Faithfulness: true, ErrorTypes: true, Explanation: true,
		Ambiguity: true, KeyFacts: true, Relevance: true, TopicCategory: true, UnsureNote: true,
		ErrorPreset:         "tofueval",
		AssistantVisibility: AssistAfterLabel,
		FeedbackGold:        true,
	}
}

// ErrorTaxonomy returns the error types annotators choose from.
func (s Settings) ErrorTaxonomy() []TaxonomyType {
	if s.ErrorPreset == "custom" {
		return s.CustomErrors
	}
	return ErrorPresets[s.ErrorPreset]
}

// Validate checks that the settings name known presets and modes.
func (s Settings) Validate() error {
	if _, ok := ErrorPresets[s.ErrorPreset]; !ok && s.ErrorPreset != "custom" {
		return Errorf(EInvalid, "unknown error-type preset %q", s.ErrorPreset)
	}
	if s.ErrorPreset == "custom" {
		if len(s.CustomErrors) == 0 {
			return Errorf(EInvalid, "a custom error taxonomy needs at least one type")
		}
		if len(s.CustomErrors) > MaxCustomErrors {
			return Errorf(EInvalid, "custom error taxonomy: %d types, at most %d allowed", len(s.CustomErrors), MaxCustomErrors)
		}
		seen := map[string]bool{}
		for i, t := range s.CustomErrors {
			if t.Code == "" || t.Name == "" {
				return Errorf(EInvalid, "custom error type %d needs a code and a name", i+1)
			}
			for _, f := range []struct {
				name, v string
				max     int
			}{{"code", t.Code, MaxNameLen}, {"name", t.Name, MaxNameLen}, {"group", t.Group, MaxNameLen}, {"definition", t.Definition, MaxShortTextLen}} {
				if err := CheckText(fmt.Sprintf("custom error type %d %s", i+1, f.name), f.v, f.max, false); err != nil {
					return Op("Settings.Validate", err)
				}
			}
			if seen[t.Code] {
				return Errorf(EInvalid, "custom error type code %q is used twice", t.Code)
			}
			seen[t.Code] = true
		}
	}
	switch s.AssistantVisibility {
	case AssistAlways, AssistAfterLabel, AssistNever:
	default:
		return Errorf(EInvalid, "unknown assistant visibility %q", s.AssistantVisibility)
	}
	return Op("Settings.Validate", validateScales(s.Scales))
}

// Assistance is how an assignment shows the assistant when it differs
// from its project's setting (a study's assistance condition).
type Assistance struct {
	// Visibility is AssistAlways, AssistAfterLabel or AssistNever.
	Visibility string
	// VerdictOnly shows the Adjudicator's verdict alone, without the
	// Advocate's and the Skeptic's.
	VerdictOnly bool
}
