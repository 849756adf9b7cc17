package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSuspectAgreesWithPatterns checks that skipping the patterns for
// text that is not suspect changes nothing: over text built from pieces
// of credentials in every case (and the Unicode letters that fold to
// ASCII ones), Text returns what running the patterns returns, and some
// of that text is redacted, so that the comparison means something.
func TestSuspectAgreesWithPatterns(t *testing.T) {
	pieces := []string{"Bearer ", "bearer\t", "BASIC ", "Authorization", "authorization\": \"", "api", "API", "-", "_", " ", "key", "KEY", "Key=",
		"x-", "?", "&", "=", ":", "\"", "sk", "pk", "rk", "SK", "abc123XYZdef", "tok.en-1", "0123456789", "ABCDEFGH12345678", "word",
		"\u212aey=", "\u017fk-", "ba\u017fic ", "é", "the bearer of bad news", "capital", "monkey", "{\"key_facts\":false}"}
	rng := rand.New(rand.NewPCG(1, 2))
	redacted := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		got, want := Text(s), scrub(s)
		if got != want {
			t.Fatalf("Text(%q) = %q, but the patterns give %q", s, got, want)
		}
		if want != s {
			redacted++
		}
	}
	if redacted < 100 {
		t.Fatalf("only %d of the texts had anything to redact", redacted)
	}
	for _, s := range []string{"model overloaded, retry later", `{"settings":{"key_facts":false},"reason":"capital"}`} {
		if suspect(s) {
			t.Errorf("suspect(%q) = true", s)
		}
	}
}
