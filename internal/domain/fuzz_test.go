package domain_test

import (
	"testing"

	"annotate/internal/domain"
)

// FuzzSentenceLabel checks the validation of label forms as they arrive
// from the page: any values may be refused, none may panic, and a label
// that validates has only known error types, each once.
func FuzzSentenceLabel(f *testing.F) {
	f.Add("unfaithful", "contradiction,contradiction", "why", "vagueness", true)
	f.Add("faithful", "", "", "", false)
	f.Add("maybe", "x", "\x00", "deduction", true)
	f.Fuzz(func(t *testing.T, label, types, explanation, ambType string, amb bool) {
		l := domain.SentenceLabel{Label: label, Explanation: explanation, AmbiguityType: ambType, Ambiguous: &amb}
		for _, c := range []byte(types) {
			l.ErrorTypes = append(l.ErrorTypes, string(c))
		}
		if types != "" {
			l.ErrorTypes = append(l.ErrorTypes, types)
		}
		set := domain.DefaultSettings()
		if err := l.Validate(set); err != nil {
			return
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
		_ = l.Missing(set)
	})
}
