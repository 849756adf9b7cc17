package tasks

import (
	"strings"
	"unicode"
)

// CleanText makes text from an untrusted source (a browser's User-Agent)
// safe to store and show: invalid UTF-8 and control characters are
// replaced.
func CleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}
