package domain_test

import (
	"math"
	"slices"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

func TestTally(t *testing.T) {
	cases := []struct {
		name      string
		votes     []domain.SentenceLabel
		unanimous bool
		majority  string // the majority label, "" when none
		split     []string
		labelSp   float64
	}{
		{"all faithful", []domain.SentenceLabel{testkit.Faithful(), testkit.Faithful(), testkit.Faithful()}, true, domain.LabelFaithful, nil, 0},
		{"one voter is not unanimous", []domain.SentenceLabel{testkit.Faithful()}, false, "", nil, 0},
		{"two of three unfaithful", []domain.SentenceLabel{testkit.Unfaithful("contradiction"), testkit.Unfaithful("contradiction"), testkit.Faithful()}, false, domain.LabelUnfaithful, []string{domain.DimLabel}, 1.0 / 3},
		{"one to one has no majority", []domain.SentenceLabel{testkit.Unfaithful("contradiction"), testkit.Faithful()}, false, "", []string{domain.DimLabel}, 0.5},
		{"error types differ", []domain.SentenceLabel{testkit.Unfaithful("contradiction"), testkit.Unfaithful("mis_referencing"), testkit.Unfaithful("contradiction")}, false, domain.LabelUnfaithful, []string{domain.DimErrorTypes}, 0},
		{"error type order does not matter", []domain.SentenceLabel{testkit.Unfaithful("contradiction", "mis_referencing"), testkit.Unfaithful("mis_referencing", "contradiction")}, true, domain.LabelUnfaithful, nil, 0},
		{"ambiguity type differs", []domain.SentenceLabel{testkit.Ambiguous(testkit.Faithful(), "vagueness"), testkit.Ambiguous(testkit.Faithful(), "deduction"), testkit.Ambiguous(testkit.Faithful(), "vagueness")}, false, domain.LabelFaithful, []string{domain.DimAmbiguity}, 0},
		{"unanswered ambiguity counts as no", []domain.SentenceLabel{{Label: domain.LabelFaithful}, testkit.Faithful()}, true, domain.LabelFaithful, nil, 0},
		{"three-way ambiguity split has no majority", []domain.SentenceLabel{testkit.Ambiguous(testkit.Faithful(), "vagueness"), testkit.Ambiguous(testkit.Faithful(), "deduction"), testkit.Faithful()}, false, "", []string{domain.DimAmbiguity}, 0},
		{"empty labels are not votes", []domain.SentenceLabel{{}, testkit.Faithful(), testkit.Faithful()}, true, domain.LabelFaithful, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tl := domain.TallyVotes(tc.votes)
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
			if got := tl.Split(domain.DimLabel); math.Abs(got-tc.labelSp) > 1e-12 {
				t.Errorf("Split(label) = %v, want %v", got, tc.labelSp)
			}
		})
	}
}

func TestTallyAgreedValues(t *testing.T) {
	tl := domain.TallyVotes([]domain.SentenceLabel{testkit.Ambiguous(testkit.Unfaithful("mis_referencing", "contradiction"), "vagueness"), testkit.Ambiguous(testkit.Unfaithful("contradiction", "mis_referencing"), "vagueness")})
	v, ok := tl.Agreed()
	if !ok {
		t.Fatal("not agreed")
	}
	if v.Label != domain.LabelUnfaithful || !slices.Equal(v.ErrorTypes, []string{"contradiction", "mis_referencing"}) ||
		v.Ambiguous == nil || !*v.Ambiguous || v.AmbiguityType != "vagueness" {
		t.Fatalf("agreed values %+v", v)
	}
	// Nobody answered the ambiguity question: the gold leaves it unanswered.
	v, _ = domain.TallyVotes([]domain.SentenceLabel{{Label: domain.LabelFaithful}, {Label: domain.LabelFaithful}}).Agreed()
	if v.Ambiguous != nil || len(v.ErrorTypes) != 0 {
		t.Fatalf("unanswered ambiguity became %v, types %v", *v.Ambiguous, v.ErrorTypes)
	}
}

func TestTallyMajorityNeedsEveryDimension(t *testing.T) {
	// Two of three say unfaithful, but their error types differ: no
	// majority set, so the sentence stays with the adjudicator.
	tl := domain.TallyVotes([]domain.SentenceLabel{testkit.Unfaithful("contradiction"), testkit.Unfaithful("mis_referencing"), testkit.Faithful()})
	if _, ok := tl.Majority(); ok {
		t.Fatal("majority accepted without a majority error-type set")
	}
	s := tl.Suggest()
	if s.Values.Label != domain.LabelUnfaithful || !s.Majority[domain.DimLabel] || s.Majority[domain.DimErrorTypes] {
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
		if got := domain.SummaryLabelFrom(tc.in); got != tc.want {
			t.Errorf("SummaryLabelFrom(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
