package redact_test

import (
	"strings"
	"testing"

	"annotate/internal/redact"
)

func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"you sent Authorization: Bearer abc123XYZ", "you sent Authorization: Bearer [redacted]"},
		{`{"headers":{"Authorization":"Bearer tok.en-1"}}`, `{"headers":{"Authorization":"Bearer [redacted]"}}`},
		{"authorization=xyz987", "authorization=[redacted]"},
		{"x-api-key: 0123456789", "x-api-key: [redacted]"},
		{`"api_key": "abcd1234"`, `"api_key": "[redacted]"`},
		{"GET /v1?key=AIzaSyA1234 failed", "GET /v1?key=[redacted] failed"},
		{"invalid key sk-proj-ABCDEFGH12345678", "invalid key [redacted]"},
		{"model overloaded, retry later", "model overloaded, retry later"},
		{"the bearer of bad news", "the bearer of bad news"},
	}
	for _, c := range cases {
		if got := redact.Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := redact.Text("the key is hunter2hunter2 here", "hunter2hunter2"); strings.Contains(got, "hunter2") {
		t.Errorf("known secret kept: %q", got)
	}
}
