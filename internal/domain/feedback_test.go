package domain_test

import (
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

// TestFeedbackCountsEveryDimension: a sentence differs from the group
// when another annotator's label, error types (both unfaithful) or
// ambiguity answer differ, not only the label: the dimensions that send a
// sentence to adjudication.
func TestFeedbackCountsEveryDimension(t *testing.T) {
	own := testkit.Faithful()
	for _, tc := range []struct {
		name  string
		other domain.SentenceLabel
		want  bool
	}{
		{"same", testkit.Faithful(), false},
		{"label", testkit.Unfaithful("contradiction"), true},
		{"ambiguity answer", testkit.Ambiguous(testkit.Faithful(), "vagueness"), true},
		{"ambiguity unanswered", domain.SentenceLabel{Label: domain.LabelFaithful}, false},
	} {
		f := domain.FeedbackSentence{Own: own, Labelled: true, Others: []domain.Vote{{Label: tc.other}}}
		if got := f.DiffersFromGroup(); got != tc.want {
			t.Errorf("%s: differs = %v, want %v", tc.name, got, tc.want)
		}
	}
	u1, u2 := testkit.Unfaithful("contradiction"), testkit.Unfaithful("contradiction", "reasoning_error")
	if domain.SameReading(u1, u2) || !domain.SameReading(u1, testkit.Unfaithful("contradiction")) {
		t.Error("error types of two unfaithful labels are not compared")
	}
	a1, a2 := testkit.Ambiguous(testkit.Faithful(), "vagueness"), testkit.Ambiguous(testkit.Faithful(), "deduction")
	if domain.SameReading(a1, a2) {
		t.Error("two ambiguity types read as the same")
	}
	gold := &domain.Gold{GoldValues: domain.GoldValues{Label: domain.LabelFaithful, Ambiguous: a1.Ambiguous, AmbiguityType: "vagueness"}}
	if f := (domain.FeedbackSentence{Own: own, Labelled: true, Gold: gold}); !f.DiffersFromGold() {
		t.Error("an ambiguity answer unlike gold's is not counted")
	}
}
