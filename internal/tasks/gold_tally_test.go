package tasks_test

import (
	"math"
	"slices"
	"testing"

	"annotate/internal/tasks"
)

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func faithful() tasks.SentenceLabel {
	return tasks.SentenceLabel{Label: tasks.LabelFaithful, Ambiguous: no()}
}

func unfaithful(types ...string) tasks.SentenceLabel {
	return tasks.SentenceLabel{Label: tasks.LabelUnfaithful, ErrorTypes: types, Explanation: "because", Ambiguous: no()}
}

func ambiguous(l tasks.SentenceLabel, typ string) tasks.SentenceLabel {
	l.Ambiguous, l.AmbiguityType, l.AmbiguityNote = yes(), typ, "two readings"
	return l
}

func TestTally(t *testing.T) {
	cases := []struct {
		name      string
		votes     []tasks.SentenceLabel
		unanimous bool
		majority  string // the majority label, "" when none
		split     []string
		labelSp   float64
	}{
		{"all faithful", []tasks.SentenceLabel{faithful(), faithful(), faithful()}, true, tasks.LabelFaithful, nil, 0},
		{"one voter is not unanimous", []tasks.SentenceLabel{faithful()}, false, "", nil, 0},
		{"two of three unfaithful", []tasks.SentenceLabel{unfaithful("contradiction"), unfaithful("contradiction"), faithful()}, false, tasks.LabelUnfaithful, []string{tasks.DimLabel}, 1.0 / 3},
		{"one to one has no majority", []tasks.SentenceLabel{unfaithful("contradiction"), faithful()}, false, "", []string{tasks.DimLabel}, 0.5},
		{"error types differ", []tasks.SentenceLabel{unfaithful("contradiction"), unfaithful("mis_referencing"), unfaithful("contradiction")}, false, tasks.LabelUnfaithful, []string{tasks.DimErrorTypes}, 0},
		{"error type order does not matter", []tasks.SentenceLabel{unfaithful("contradiction", "mis_referencing"), unfaithful("mis_referencing", "contradiction")}, true, tasks.LabelUnfaithful, nil, 0},
		{"ambiguity type differs", []tasks.SentenceLabel{ambiguous(faithful(), "vagueness"), ambiguous(faithful(), "deduction"), ambiguous(faithful(), "vagueness")}, false, tasks.LabelFaithful, []string{tasks.DimAmbiguity}, 0},
		{"unanswered ambiguity counts as no", []tasks.SentenceLabel{{Label: tasks.LabelFaithful}, faithful()}, true, tasks.LabelFaithful, nil, 0},
		{"three-way ambiguity split has no majority", []tasks.SentenceLabel{ambiguous(faithful(), "vagueness"), ambiguous(faithful(), "deduction"), faithful()}, false, "", []string{tasks.DimAmbiguity}, 0},
		{"empty labels are not votes", []tasks.SentenceLabel{{}, faithful(), faithful()}, true, tasks.LabelFaithful, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tl := tasks.TallyVotes(tc.votes)
			if got := tl.Unanimous(); got != tc.unanimous {
				t.Errorf("Unanimous = %v, want %v", got, tc.unanimous)
			}
			m, ok := tl.Majority()
			if got := map[bool]string{true: m.Label}[ok]; got != tc.majority {
				t.Errorf("Majority label = %q (ok %v), want %q", got, ok, tc.majority)
			}
			if got := tl.Disagreeing(); !slices.Equal(got, tc.split) {
				t.Errorf("Disagreeing = %v, want %v", got, tc.split)
			}
			if got := tl.Split(tasks.DimLabel); math.Abs(got-tc.labelSp) > 1e-12 {
				t.Errorf("Split(label) = %v, want %v", got, tc.labelSp)
			}
		})
	}
}

func TestTallyAgreedValues(t *testing.T) {
	tl := tasks.TallyVotes([]tasks.SentenceLabel{ambiguous(unfaithful("mis_referencing", "contradiction"), "vagueness"), ambiguous(unfaithful("contradiction", "mis_referencing"), "vagueness")})
	v, ok := tl.Agreed()
	if !ok {
		t.Fatal("not agreed")
	}
	if v.Label != tasks.LabelUnfaithful || !slices.Equal(v.ErrorTypes, []string{"contradiction", "mis_referencing"}) ||
		v.Ambiguous == nil || !*v.Ambiguous || v.AmbiguityType != "vagueness" {
		t.Fatalf("agreed values %+v", v)
	}
	// Nobody answered the ambiguity question: the gold leaves it unanswered.
	v, _ = tasks.TallyVotes([]tasks.SentenceLabel{{Label: tasks.LabelFaithful}, {Label: tasks.LabelFaithful}}).Agreed()
	if v.Ambiguous != nil || len(v.ErrorTypes) != 0 {
		t.Fatalf("unanswered ambiguity became %v, types %v", *v.Ambiguous, v.ErrorTypes)
	}
}

func TestTallyMajorityNeedsEveryDimension(t *testing.T) {
	// Two of three say unfaithful, but their error types differ: no
	// majority set, so the sentence stays with the adjudicator.
	tl := tasks.TallyVotes([]tasks.SentenceLabel{unfaithful("contradiction"), unfaithful("mis_referencing"), faithful()})
	if _, ok := tl.Majority(); ok {
		t.Fatal("majority accepted without a majority error-type set")
	}
	s := tl.Suggest()
	if s.Values.Label != tasks.LabelUnfaithful || !s.Majority[tasks.DimLabel] || s.Majority[tasks.DimErrorTypes] {
		t.Fatalf("suggestion %+v", s)
	}
	top, label := tl.Score()
	if math.Abs(top-0.5) > 1e-12 || math.Abs(label-1.0/3) > 1e-12 {
		t.Fatalf("Score = %v, %v; want 0.5, 1/3", top, label)
	}
}

func TestSummaryLabelFrom(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"faithful", "faithful"}, "faithful"},
		{[]string{"faithful", "borderline"}, "borderline"},
		{[]string{"borderline", "unfaithful", "faithful"}, "unfaithful"},
	}
	for _, tc := range cases {
		if got := tasks.SummaryLabelFrom(tc.in); got != tc.want {
			t.Errorf("SummaryLabelFrom(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
