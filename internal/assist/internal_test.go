package assist

import (
	"testing"
	"time"
)

// TestParseRetryAfter covers both header forms and the malformed ones.
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"-1", 0, false},
		{"Mon, 02 Nov 2026 12:00:07 GMT", 7 * time.Second, true},
		{"Mon, 02 Nov 2026 11:59:00 GMT", 0, true},
		{"soon", 0, false},
	} {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestBackoffGrowsWithJitter proves each wait lies in [d/2, d] for d the
// doubled base, capped at the maximum.
func TestBackoffGrowsWithJitter(t *testing.T) {
	c := &Client{cfg: Config{BackoffBase: 100 * time.Millisecond, BackoffMax: time.Second}}
	for n, d := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 5: time.Second, 30: time.Second} {
		for range 50 {
			if w := c.backoff(n); w < d/2 || w > d {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", n, w, d/2, d)
			}
		}
	}
}

// TestOpeningStances proves stances are balanced for any agent count.
func TestOpeningStances(t *testing.T) {
	sd := seeder{run: 1, key: "k"}
	for n := 2; n <= 9; n++ {
		var f, u int
		for _, s := range openingStances(n, sd.stream("stances", n)) {
			if s == Faithful {
				f++
			} else {
				u++
			}
		}
		if f-u < 0 || f-u > 1 {
			t.Errorf("%d agents: %d faithful, %d unfaithful", n, f, u)
		}
	}
}

// TestMajorityTieIsUnfaithful pins the tie rule.
func TestMajorityTieIsUnfaithful(t *testing.T) {
	if majority(Votes{Faithful: 2, Unfaithful: 2}) != Unfaithful || majority(Votes{Faithful: 3, Unfaithful: 2}) != Faithful {
		t.Error("tie rule broken")
	}
}

// TestExtractJSON proves wrappers some servers add are removed.
func TestExtractJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                            `{"a":1}`,
		"```json\n{\"a\":1}\n```":            `{"a":1}`,
		"```{\"a\":1}```":                    `{"a":1}`,
		"<think>hmm</think>\n{\"a\":1}":      `{"a":1}`,
		"  \n{\"a\":1}\n":                    `{"a":1}`,
		"<think>a</think>```json\n{}\n```\n": `{}`,
	} {
		if got := extractJSON(in); got != want {
			t.Errorf("extractJSON(%q) = %q, want %q", in, got, want)
		}
	}
}
