package web

import (
	"net/url"

	"annotate/internal/domain"
)

// sentenceLabelForm reads a sentence label from the labelling page's form.
// Fields that do not apply are dropped: error types and the explanation
// unless the label is unfaithful, the ambiguity type and description unless
// the sentence is ambiguous (the page clears them too, with an undo).
// Whether the assistant was visible is the store's decision, not the
// form's, and so is validation.
func sentenceLabelForm(sid int64, form url.Values) domain.SentenceLabel {
	l := domain.SentenceLabel{
		SentenceID:    sid,
		Label:         form.Get("label"),
		ErrorTypes:    form["error_types"],
		Explanation:   form.Get("explanation"),
		AmbiguityType: form.Get("ambiguity_type"),
		AmbiguityNote: form.Get("ambiguity_note"),
		UnsureNote:    form.Get("unsure_note"),
		Flag:          form.Get("flag"),
	}
	switch form.Get("ambiguous") {
	case "yes":
		l.Ambiguous = ptr(true)
	case "no":
		l.Ambiguous = ptr(false)
	}
	l.DropInapplicable()
	return l
}
