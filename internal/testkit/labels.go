package testkit

import "annotate/internal/domain"

// Ptr returns a pointer to v: an answered yes/no question, an optional
// score.
func Ptr[T any](v T) *T { return &v }

// Faithful is a faithful sentence label with the ambiguity question
// answered no.
func Faithful() domain.SentenceLabel {
	return domain.SentenceLabel{Label: domain.LabelFaithful, Ambiguous: Ptr(false)}
}

// Unfaithful is an unfaithful sentence label with these error types, an
// explanation and the ambiguity question answered no.
func Unfaithful(types ...string) domain.SentenceLabel {
	return domain.SentenceLabel{Label: domain.LabelUnfaithful, ErrorTypes: types, Explanation: "because", Ambiguous: Ptr(false)}
}

// Ambiguous is l with the ambiguity question answered yes, of type typ,
// with a note.
func Ambiguous(l domain.SentenceLabel, typ string) domain.SentenceLabel {
	l.Ambiguous, l.AmbiguityType, l.AmbiguityNote = Ptr(true), typ, "two readings"
	return l
}
