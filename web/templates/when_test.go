package templates

import (
	"testing"
	"time"
)

func TestRelativeTime(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{now.Add(-20 * time.Second), "just now"},
		{now.Add(40 * time.Second), "just now"},
		{now.Add(-time.Minute), "1 minute ago"},
		{now.Add(-3*time.Minute - 59*time.Second), "3 minutes ago"},
		{now.Add(-2 * time.Hour), "2 hours ago"},
		{now.Add(5 * time.Hour), "in 5 hours"},
		{time.Date(2026, 11, 24, 9, 5, 0, 0, time.UTC), "yesterday at 09:05"},
		{now.Add(-4 * 24 * time.Hour), "4 days ago"},
		{now.Add(3 * 24 * time.Hour), "in 3 days"},
		{time.Date(2026, 3, 12, 8, 0, 0, 0, time.UTC), "12 Mar"},
		{time.Date(2025, 3, 12, 8, 0, 0, 0, time.UTC), "12 Mar 2025"},
	} {
		if got := RelativeTime(tc.at, now); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.at, got, tc.want)
		}
	}
}

func TestParseMoment(t *testing.T) {
	want := time.Date(2026, 11, 25, 14, 3, 0, 0, time.UTC)
	for _, s := range []string{"2026-11-25T14:03:00Z", "2026-11-25 14:03:00", "2026-11-25 14:03 UTC", "2026-11-25T14:03:00.000Z", "2026-11-25T15:03:00+01:00"} {
		got, ok := ParseMoment(s)
		if !ok || !got.Equal(want) {
			t.Errorf("%q: %v %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "never", "yesterday"} {
		if _, ok := ParseMoment(s); ok {
			t.Errorf("%q parsed as a time", s)
		}
	}
	if got := ExactTime(want); got != "25 Nov 2026, 14:03 UTC" {
		t.Errorf("exact: %q", got)
	}
}

func TestBrowserName(t *testing.T) {
	for agent, want := range map[string]string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36":                         "Chrome on Windows",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36":                           "Chrome on Linux",
		"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0":                                                          "Firefox on Linux",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1": "Safari on iPhone",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15":                   "Safari on macOS",
		"curl/8.5.0": "curl",
		"":           "Unknown browser",
	} {
		if got := BrowserName(agent); got != want {
			t.Errorf("%q: got %q, want %q", agent, got, want)
		}
	}
}
