package web

import (
	"net/url"

	"annotate/internal/tasks"
)

// sentenceLabelForm reads a sentence label from the labelling page's form.
// Fields that do not apply are dropped: error types unless the label is
// unfaithful (the page keeps them in hidden fields in case the annotator
// switches back), the ambiguity type unless the sentence is ambiguous.
// Whether the assistant was visible is the store's decision, not the
// form's, and so is validation.
func sentenceLabelForm(sid int64, form url.Values) tasks.SentenceLabel {
	l := tasks.SentenceLabel{
		SentenceID:    sid,
		Label:         form.Get("label"),
		ErrorTypes:    form["error_types"],
		Explanation:   form.Get("explanation"),
		AmbiguityType: form.Get("ambiguity_type"),
		AmbiguityNote: form.Get("ambiguity_note"),
		UnsureNote:    form.Get("unsure_note"),
	}
	switch form.Get("ambiguous") {
	case "yes":
		l.Ambiguous = ptr(true)
	case "no":
		l.Ambiguous = ptr(false)
	}
	if l.Label != tasks.LabelUnfaithful {
		l.ErrorTypes = nil
	}
	if l.Ambiguous == nil || !*l.Ambiguous {
		l.AmbiguityType = ""
	}
	return l
}
