// Package redact removes credentials from text that came from a model
// endpoint (error messages, echoed requests) before it is stored or shown.
package redact

import (
	"regexp"
	"strings"
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
