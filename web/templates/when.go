package templates

import (
	"fmt"
	"strings"
	"time"

	"github.com/mileusna/useragent"
)

// timeLayouts are the ways times reach the pages: SQLite's text
// timestamps, RFC 3339, and the "2006-01-02 15:04 UTC" the handlers write.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05 UTC",
	"2006-01-02 15:04 UTC",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
}

// ParseMoment reads a time as the store or a handler wrote it, in UTC
// unless it names a zone; ok is false for anything else ("never", "").
func ParseMoment(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ExactTime is the full time shown on hover: "25 Nov 2026, 14:03 UTC".
func ExactTime(t time.Time) string { return t.UTC().Format("2 Jan 2006, 15:04 UTC") }

// RelativeTime says how long ago (or how far ahead) t is from now, in
// the words a person uses: "just now", "3 minutes ago", "in 2 hours",
// "yesterday at 14:03", "4 days ago", "12 Mar", "12 Mar 2025". Times are
// read in UTC, the zone every exact time on the pages is given in.
func RelativeTime(t, now time.Time) string {
	t, now = t.UTC(), now.UTC()
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	span := ""
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		span = plural(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		span = plural(int(d/time.Hour), "hour")
	case !future && sameDay(t, now.AddDate(0, 0, -1)):
		return "yesterday at " + t.Format("15:04")
	case d < 7*24*time.Hour:
		span = plural(int(d/(24*time.Hour)), "day")
	case t.Year() == now.Year():
		return t.Format("2 Jan")
	default:
		return t.Format("2 Jan 2006")
	}
	if future {
		return "in " + span
	}
	return span + " ago"
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// BrowserName names a browser from its user agent as a person would:
// "Chrome on Windows", "Safari on iPhone", "Firefox on Linux". A program
// that is not a browser keeps its own name ("curl"); an empty or unknown
// agent is "Unknown browser". The raw agent is for the title attribute.
func BrowserName(agent string) string {
	ua := useragent.Parse(agent)
	name := strings.TrimSpace(strings.TrimPrefix(ua.Name, "Headless"))
	if name == "" {
		if agent == "" {
			return "Unknown browser"
		}
		name, _, _ = strings.Cut(agent, "/")
		if len(name) > 40 || strings.ContainsAny(name, " ()") {
			return "Unknown browser"
		}
		return name
	}
	os := ua.OS
	switch {
	case ua.Device == "iPhone" || ua.Device == "iPad":
		os = ua.Device
	case os == "":
		return name
	}
	return name + " on " + os
}
