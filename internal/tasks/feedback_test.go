package tasks_test

import (
	"testing"

	"annotate/internal/domain"
)

// TestFeedbackCountsEveryDimension: a sentence differs from the group
// when another annotator's label, error types (both unfaithful) or
// ambiguity answer differ, not only the label: the dimensions that send a
// sentence to adjudication.
func TestFeedbackCountsEveryDimension(t *testing.T) {
	own := faithful()
	for _, tc := range []struct {
		name  string
		other domain.SentenceLabel
		want  bool
	}{
		{"same", faithful(), false},
		{"label", unfaithful("contradiction"), true},
		{"ambiguity answer", ambiguous(faithful(), "vagueness"), true},
		{"ambiguity unanswered", domain.SentenceLabel{Label: domain.LabelFaithful}, false},
	} {
		f := domain.FeedbackSentence{Own: own, Labelled: true, Others: []domain.Vote{{Label: tc.other}}}
		if got := f.DiffersFromGroup(); got != tc.want {
			t.Errorf("%s: differs = %v, want %v", tc.name, got, tc.want)
		}
	}
	u1, u2 := unfaithful("contradiction"), unfaithful("contradiction", "reasoning_error")
	if domain.SameReading(u1, u2) || !domain.SameReading(u1, unfaithful("contradiction")) {
		t.Error("error types of two unfaithful labels are not compared")
	}
	a1, a2 := ambiguous(faithful(), "vagueness"), ambiguous(faithful(), "deduction")
	if domain.SameReading(a1, a2) {
		t.Error("two ambiguity types read as the same")
	}
	gold := &domain.Gold{GoldValues: domain.GoldValues{Label: domain.LabelFaithful, Ambiguous: a1.Ambiguous, AmbiguityType: "vagueness"}}
	if f := (domain.FeedbackSentence{Own: own, Labelled: true, Gold: gold}); !f.DiffersFromGold() {
		t.Error("an ambiguity answer unlike gold's is not counted")
	}
}
