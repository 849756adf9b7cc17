package web

import (
	"net/url"
	"testing"

	"annotate/internal/domain"
)

// FuzzSentenceLabelForm feeds raw form bodies to the label form reader and
// the store's validation: nothing may panic, and a label that validates
// keeps only what applies to it (error types and explanation only when
// unfaithful, an ambiguity type and description only when ambiguous, each error type known and once).
// The seed corpus is in testdata/fuzz/FuzzSentenceLabelForm.
func FuzzSentenceLabelForm(f *testing.F) {
	f.Add("label=faithful&ambiguous=no&version=3", "after_first_label")
	f.Fuzz(func(t *testing.T, body, mode string) {
		form, err := url.ParseQuery(body)
		if err != nil {
			return
		}
		l := sentenceLabelForm(7, form)
		if l.SentenceID != 7 {
			t.Fatalf("sentence id %d", l.SentenceID)
		}
		if l.AssistantVisible {
			t.Fatalf("the form decided the assistant was visible (mode %s)", mode)
		}
		set := domain.DefaultSettings()
		if err := l.Validate(set); err != nil {
			return
		}
		if l.Label != domain.LabelUnfaithful && (len(l.ErrorTypes) > 0 || l.Explanation != "") {
			t.Fatalf("label %q kept error types %v or explanation %q", l.Label, l.ErrorTypes, l.Explanation)
		}
		if (l.Ambiguous == nil || !*l.Ambiguous) && (l.AmbiguityType != "" || l.AmbiguityNote != "") {
			t.Fatalf("not ambiguous but type %q, description %q", l.AmbiguityType, l.AmbiguityNote)
		}
		known := map[string]bool{}
		for _, e := range set.ErrorTaxonomy() {
			known[e.Code] = true
		}
		seen := map[string]bool{}
		for _, e := range l.ErrorTypes {
			if !known[e] || seen[e] {
				t.Fatalf("validated label has error types %v", l.ErrorTypes)
			}
			seen[e] = true
		}
	})
}
