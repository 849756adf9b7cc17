package templates

import (
	"encoding/json"
	"strconv"
)

// csrfHeaders is the hx-headers value that makes htmx send the CSRF token
// with every request it issues.
func csrfHeaders(token string) string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": token})
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }

func id64(n int64) string { return strconv.FormatInt(n, 10) }

// markClass and markText show a sentence's label state; the text carries
// the meaning so colour is never the only signal.
func markClass(l SentenceLabelView) string {
	switch {
	case l.Label == "":
		return "mark-none"
	case !l.Complete:
		return "mark-partial"
	}
	return "mark-" + l.Label
}

func markText(l SentenceLabelView) string {
	switch {
	case l.Label == "":
		return "○ to do"
	case !l.Complete:
		return "◐ incomplete"
	case l.Label == "faithful":
		return "✓ faithful"
	case l.Label == "unfaithful":
		return "✗ unfaithful"
	}
	return "~ " + l.Label
}

// groups lists the taxonomy's groups in order of first appearance.
func groups(ts []TaxonomyView) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range ts {
		if !seen[t.Group] {
			seen[t.Group] = true
			out = append(out, t.Group)
		}
	}
	return out
}

func statusText(s string) string {
	switch s {
	case "pending":
		return "to do"
	case "in_progress":
		return "started"
	case "submitted":
		return "done"
	}
	return s
}
