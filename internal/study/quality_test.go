package study

import (
	"math"
	"slices"
	"testing"
)

// TestAssess computes a participant's figures by hand.
func TestAssess(t *testing.T) {
	nan := math.NaN()
	q := Assess([]Answer{
		{Label: "faithful", Seconds: 2},
		{Label: "faithful", Check: true, Right: true, Seconds: 4},
		{Label: "unfaithful", Check: true, Right: false, Seconds: 1},
		{Label: "faithful", Seconds: nan},
		{Label: "faithful", Seconds: 3},
	}, 0.75, 3)
	if q.ChecksPassed != 1 || q.ChecksFailed != 1 || q.SecondsPerSentence != 2.5 || !q.TooFast || q.Straightlining != 0.8 || q.ScreeningScore != 0.75 {
		t.Fatalf("got %+v", q)
	}
	if q := Assess(nil, nan, 3); !math.IsNaN(q.SecondsPerSentence) || !math.IsNaN(q.Straightlining) || q.TooFast {
		t.Fatalf("no answers: %+v", q)
	}
}

// TestRules checks which participants each rule excludes and why.
func TestRules(t *testing.T) {
	careful := Quality{ChecksPassed: 3, SecondsPerSentence: 12, Straightlining: 0.6, ScreeningScore: 1}
	sloppy := Quality{ChecksPassed: 1, ChecksFailed: 2, SecondsPerSentence: 1.5, TooFast: true, Straightlining: 0.95, ScreeningScore: 0.5}
	for _, tc := range []struct {
		rule             string
		careful, sloppyN int
	}{
		{"none", 0, 0},
		{"any_failed_check", 0, 1},
		{"failed_checks >= 3", 0, 0},
		{"failed_checks >= 2 or too_fast", 0, 2},
		{"straightlining >= 0.9", 0, 1},
		{"screening_below 0.6 or any_failed_check or too_fast or straightlining >= 0.9", 0, 4},
	} {
		r, err := ParseRule(tc.rule)
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		if got := r.Excludes(careful); len(got) != tc.careful {
			t.Errorf("%s excludes the careful participant: %v", tc.rule, got)
		}
		if got := r.Excludes(sloppy); len(got) != tc.sloppyN {
			t.Errorf("%s gives %d reasons for the sloppy one, want %d: %v", tc.rule, len(got), tc.sloppyN, got)
		}
	}
	r, _ := ParseRule("any_failed_check or too_fast")
	if got := r.Excludes(sloppy); !slices.Equal(got, []string{"failed 2 attention check(s)", "too fast: median 1.5 s per sentence"}) {
		t.Errorf("reasons: %q", got)
	}
	for _, bad := range []string{"failed_checks >= 0", "straightlining >= 2", "too_slow", "any_failed_check or", "screening_below x"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestScreeningPass checks the threshold is inclusive.
func TestScreeningPass(t *testing.T) {
	s := Screening{Items: 4, Pass: 0.75}
	if !s.Passed(3, 4) || s.Passed(2, 4) || s.Passed(0, 0) {
		t.Fatal("threshold")
	}
}
