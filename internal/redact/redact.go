// Package redact removes credentials from text that came from a model
// endpoint (error messages, echoed requests) before it is stored or shown.
package redact

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Mark replaces a removed credential.
const Mark = "[redacted]"

// credential matches the value after a Bearer scheme, an Authorization or
// API-key header or field, in the forms endpoints echo them.
var credential = regexp.MustCompile(`(?i)(\bbearer\s+|\bbasic\s+|\bauthorization"?\s*[:=]\s*"?(?:(?:bearer|basic|token)\s+)?|\b(?:x-)?api[-_ ]?key"?\s*[:=]\s*"?|[?&](?:api[-_]?)?key=)([^\s"',;&<>\\]{3,})`)

// secretLike matches strings shaped like common API keys (sk-..., long
// random tokens after "key"), caught even without a header name.
var secretLike = regexp.MustCompile(`\b(sk|pk|rk)-[A-Za-z0-9_\-]{8,}`)

// Text returns s with every credential removed: the given secrets wherever
// they appear (those shorter than 4 bytes are ignored), and any value that
// follows Bearer, Authorization or an API-key name.
func Text(s string, secrets ...string) string {
	for _, k := range secrets {
		if len(k) >= 4 {
			s = strings.ReplaceAll(s, k, Mark)
		}
	}
	if !suspect(s) {
		return s
	}
	return scrub(s)
}

// scrub applies the patterns to s.
func scrub(s string) string {
	s = credential.ReplaceAllStringFunc(s, func(m string) string {
		sub := credential.FindStringSubmatch(m)
		if strings.HasPrefix(sub[2], "[redacted") || !tokenLike(sub[2]) {
			return m
		}
		return sub[1] + Mark
	})
	return secretLike.ReplaceAllString(s, Mark)
}

// tokenLike tells a credential from a word ("bearer of bad news"): it has
// a digit, or is long.
func tokenLike(v string) bool {
	return len(v) >= 20 || strings.ContainsAny(v, "0123456789")
}

// suspect reports whether s holds something either pattern could match:
// a name that credential starts with (bearer, basic, authorization, an
// API-key name or key=, in any case) or the dash of an sk-, pk- or rk-
// key. Most text holds none, and this scan costs a small part of running
// the patterns (an assistant import redacts every result it stores). The
// patterns ignore case as Unicode does, which also folds the Kelvin sign
// to k and the long s to s: text holding either is always suspect.
func suspect(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			if strings.HasPrefix(s[i:], "\u212a") || strings.HasPrefix(s[i:], "\u017f") {
				return true
			}
			continue
		}
		switch c | 0x20 {
		case 'b':
			if foldPrefix(s[i:], "bearer") || foldPrefix(s[i:], "basic") {
				return true
			}
		case 'a':
			if foldPrefix(s[i:], "authorization") {
				return true
			}
			if foldPrefix(s[i:], "api") {
				rest := s[i+3:]
				if rest != "" && (rest[0] == '-' || rest[0] == '_' || rest[0] == ' ') {
					rest = rest[1:]
				}
				if foldPrefix(rest, "key") {
					return true
				}
			}
		case 'k':
			if foldPrefix(s[i:], "key=") {
				return true
			}
		case '-':
			if c == '-' && i >= 2 {
				if p := s[i-2 : i]; p == "sk" || p == "pk" || p == "rk" {
					return true
				}
			}
		}
	}
	return false
}

// foldPrefix reports whether s starts with prefix (lower-case ASCII),
// ignoring the case of ASCII letters.
func foldPrefix(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
