package tasks_test

import (
	"testing"

	"annotate/internal/tasks"
)

// TestFeedbackCountsEveryDimension: a sentence differs from the group
// when another annotator's label, error types (both unfaithful) or
// ambiguity answer differ, not only the label: the dimensions that send a
// sentence to adjudication.
func TestFeedbackCountsEveryDimension(t *testing.T) {
	own := faithful()
	for _, tc := range []struct {
		name  string
		other tasks.SentenceLabel
		want  bool
	}{
		{"same", faithful(), false},
		{"label", unfaithful("contradiction"), true},
		{"ambiguity answer", ambiguous(faithful(), "vagueness"), true},
		{"ambiguity unanswered", tasks.SentenceLabel{Label: tasks.LabelFaithful}, false},
	} {
		f := tasks.FeedbackSentence{Own: own, Labelled: true, Others: []tasks.Vote{{Label: tc.other}}}
		if got := f.DiffersFromGroup(); got != tc.want {
			t.Errorf("%s: differs = %v, want %v", tc.name, got, tc.want)
		}
	}
	u1, u2 := unfaithful("contradiction"), unfaithful("contradiction", "reasoning_error")
	if tasks.SameReading(u1, u2) || !tasks.SameReading(u1, unfaithful("contradiction")) {
		t.Error("error types of two unfaithful labels are not compared")
	}
	a1, a2 := ambiguous(faithful(), "vagueness"), ambiguous(faithful(), "deduction")
	if tasks.SameReading(a1, a2) {
		t.Error("two ambiguity types read as the same")
	}
	gold := &tasks.Gold{GoldValues: tasks.GoldValues{Label: tasks.LabelFaithful, Ambiguous: a1.Ambiguous, AmbiguityType: "vagueness"}}
	if f := (tasks.FeedbackSentence{Own: own, Labelled: true, Gold: gold}); !f.DiffersFromGold() {
		t.Error("an ambiguity answer unlike gold's is not counted")
	}
}
