package assist_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"annotate/internal/assist"
)

// An endpoint's text is untrusted: a reason as long as the 32 MiB the
// client reads, or one holding terminal escapes, is stored and shown
// bounded and clean, without refusing an answer that follows the schema.
func TestAnswerTextIsBoundedAndCleaned(t *testing.T) {
	long := strings.Repeat("é", 3<<20) // 6 MiB of text
	f := newFake(t, func(_ int, r wireRequest) reply {
		switch r.name() {
		case "single_advocate":
			return ok(validAnswer(r, map[string]any{"citations": []int{2}, "reason": long}))
		case "single_skeptic":
			return ok(validAnswer(r, map[string]any{"citations": []int{6}, "reason": "red \x1b[31mtext\x1b[0m\r\nnext line\tend"}))
		}
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{})
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
	}
	if res.Usage.Repairs != 0 {
		t.Errorf("%d repairs: a long answer that follows the schema was refused", res.Usage.Repairs)
	}
	a := res.Advocate.Reason
	if n := utf8.RuneCountInString(a); n > 8100 || !strings.HasSuffix(a, "[…]") || !strings.HasPrefix(a, "éé") {
		t.Errorf("advocate reason: %d runes, ends %q", n, a[max(0, len(a)-20):])
	}
	if s, want := res.Skeptic.Reason, "red \uFFFD[31mtext\uFFFD[0m\nnext line\tend"; s != want {
		t.Errorf("skeptic reason = %q, want %q", s, want)
	}
}
