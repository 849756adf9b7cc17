package domain

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on stored text, in characters. Every text a user can send is
// checked against one of them before anything is written.
const (
	MaxNameLen       = 100    // names: rounds, runs, display names, taxonomy names and codes
	MaxShortTextLen  = 1000   // one-line descriptions
	MaxNoteLen       = 10000  // explanations, notes, comments
	MaxGuidelinesLen = 200000 // a project's guidelines (Markdown)
	MaxCustomErrors  = 100    // types in a custom error taxonomy
	maxTextLen       = MaxNoteLen
)

// CheckText refuses text that is not valid UTF-8, holds NUL or other
// control characters (a multi-line field may hold tabs and line breaks),
// or is longer than max characters. The error names the field.
func CheckText(field, s string, max int, multiline bool) error {
	if !utf8.ValidString(s) {
		return Errorf(EInvalid, "%s: not valid UTF-8 text", field)
	}
	for _, r := range s {
		if r == 0 {
			return Errorf(EInvalid, "%s: holds a NUL character", field)
		}
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\r' || r == '\t')) {
			return Errorf(EInvalid, "%s: holds a control character (U+%04X)", field, r)
		}
	}
	if n := utf8.RuneCountInString(s); n > max {
		return Errorf(EInvalid, "%s: %d characters, at most %d allowed", field, n, max)
	}
	return nil
}

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
