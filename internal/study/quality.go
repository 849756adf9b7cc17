package study

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Quality is what a lead reads about one participant's work.
type Quality struct {
	ScreeningScore float64 // share right in screening; NaN when there was none
	ChecksPassed   int     // attention checks answered right
	ChecksFailed   int     // attention checks answered wrong
	// SecondsPerSentence is the median active seconds per labelled
	// sentence; NaN when no time was recorded.
	SecondsPerSentence float64
	// Straightlining is the largest share of the participant's sentence
	// labels that are one and the same label; NaN with no labels.
	Straightlining float64
	TooFast        bool // SecondsPerSentence below the study's threshold
}

// Answer is one of a participant's sentence labels, as quality figures
// need it.
type Answer struct {
	Label   string  // the label given ("faithful", "unfaithful", …)
	Check   bool    // the sentence was an attention check
	Right   bool    // for a check: the label equals the check's answer
	Seconds float64 // active seconds on the sentence; NaN when unknown
}

// Assess computes a participant's quality figures from their answers and
// screening score (NaN for none), flagging too fast below tooFast
// seconds per sentence.
func Assess(answers []Answer, screening, tooFast float64) Quality {
	q := Quality{ScreeningScore: screening, SecondsPerSentence: math.NaN(), Straightlining: math.NaN()}
	var secs []float64
	count := map[string]int{}
	n := 0
	for _, a := range answers {
		if a.Check {
			if a.Right {
				q.ChecksPassed++
			} else {
				q.ChecksFailed++
			}
		}
		if !math.IsNaN(a.Seconds) {
			secs = append(secs, a.Seconds)
		}
		count[a.Label]++
		n++
	}
	if len(secs) > 0 {
		slices.Sort(secs)
		m := len(secs) / 2
		q.SecondsPerSentence = secs[m]
		if len(secs)%2 == 0 {
			q.SecondsPerSentence = (secs[m-1] + secs[m]) / 2
		}
		q.TooFast = q.SecondsPerSentence < tooFast
	}
	if n > 0 {
		most := 0
		for _, c := range count {
			most = max(most, c)
		}
		q.Straightlining = float64(most) / float64(n)
	}
	return q
}

// Rule is a study's exclusion rule: a participant is excluded when any
// of its terms holds.
type Rule struct {
	terms []term
	text  string
}

type term struct {
	kind  string  // any_failed_check, too_fast, failed_checks, straightlining, screening_below
	limit float64 // for the comparisons
}

// ParseRule reads an exclusion rule: "none", or terms joined by "or":
//
//	any_failed_check        one or more attention checks failed
//	failed_checks >= N      N or more attention checks failed
//	too_fast                median seconds per sentence below the study's threshold
//	straightlining >= X     X or more of the labels are one label (0 < X ≤ 1)
//	screening_below X       screening score below X (for studies that let everyone in)
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	r := Rule{text: s}
	if s == "" || s == "none" {
		r.text = "none"
		return r, nil
	}
	for _, part := range strings.Split(s, " or ") {
		f := strings.Fields(part)
		switch {
		case len(f) == 1 && (f[0] == "any_failed_check" || f[0] == "too_fast"):
			r.terms = append(r.terms, term{kind: f[0]})
		case len(f) == 3 && f[0] == "failed_checks" && f[1] == ">=":
			n, err := strconv.Atoi(f[2])
			if err != nil || n < 1 {
				return Rule{}, fmt.Errorf("%q: the number of failed checks must be a whole number of at least 1", part)
			}
			r.terms = append(r.terms, term{kind: f[0], limit: float64(n)})
		case len(f) == 3 && f[0] == "straightlining" && f[1] == ">=":
			x, err := strconv.ParseFloat(f[2], 64)
			if err != nil || x <= 0 || x > 1 {
				return Rule{}, fmt.Errorf("%q: the straight-lining share must be above 0 and at most 1", part)
			}
			r.terms = append(r.terms, term{kind: f[0], limit: x})
		case len(f) == 2 && f[0] == "screening_below":
			x, err := strconv.ParseFloat(f[1], 64)
			if err != nil || x <= 0 || x > 1 {
				return Rule{}, fmt.Errorf("%q: the screening score must be above 0 and at most 1", part)
			}
			r.terms = append(r.terms, term{kind: f[0], limit: x})
		default:
			return Rule{}, fmt.Errorf("%q is not a rule: use none, or any_failed_check, failed_checks >= N, too_fast, straightlining >= X, screening_below X joined by \"or\"", part)
		}
	}
	return r, nil
}

// String returns the rule as written.
func (r Rule) String() string { return r.text }

// Excludes returns the reasons the rule excludes a participant of the
// given quality; none means the participant is kept.
func (r Rule) Excludes(q Quality) []string {
	var why []string
	for _, t := range r.terms {
		switch t.kind {
		case "any_failed_check":
			if q.ChecksFailed > 0 {
				why = append(why, fmt.Sprintf("failed %d attention check(s)", q.ChecksFailed))
			}
		case "failed_checks":
			if float64(q.ChecksFailed) >= t.limit {
				why = append(why, fmt.Sprintf("failed %d attention checks (limit %g)", q.ChecksFailed, t.limit))
			}
		case "too_fast":
			if q.TooFast {
				why = append(why, fmt.Sprintf("too fast: median %.1f s per sentence", q.SecondsPerSentence))
			}
		case "straightlining":
			if q.Straightlining >= t.limit {
				why = append(why, fmt.Sprintf("straight-lining: %.0f%% of labels the same", 100*q.Straightlining))
			}
		case "screening_below":
			if q.ScreeningScore < t.limit {
				why = append(why, fmt.Sprintf("screening score %.2f below %g", q.ScreeningScore, t.limit))
			}
		}
	}
	return why
}

// Passed reports whether a screening score passes the threshold.
func (s Screening) Passed(right, total int) bool {
	return total > 0 && float64(right)/float64(total) >= s.Pass-1e-12
}
