package templates

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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

// clock formats seconds as m:ss, or h:mm:ss from an hour on.
func clock(secs int) string {
	if secs < 0 {
		secs = 0
	}
	h, m, s := secs/3600, secs/60%60, secs%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// markSymbol and markWords split markText for narrow screens, which show
// the symbol and keep the words for screen readers.
func markSymbol(l SentenceLabelView) string {
	sym, _, _ := strings.Cut(markText(l), " ")
	return sym
}

func markWords(l SentenceLabelView) string {
	_, words, _ := strings.Cut(markText(l), " ")
	return " " + words
}

// hasFlags reports whether any sentence is flagged for the leads.
func hasFlags(ss []SentenceView) bool {
	for _, s := range ss {
		if s.Label.Flag != "" {
			return true
		}
	}
	return false
}
