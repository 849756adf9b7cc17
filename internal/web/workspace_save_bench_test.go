package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// BenchmarkRevealSave measures the sentence save that reveals the
// assistant (visibility "after the first label"), end to end over
// loopback, on the 40-sentence summary with an assistant run on every
// sentence: the answer is the sentence's mark, the version and its panel.
func BenchmarkRevealSave(b *testing.B) {
	w := newLongFixture(b, domain.AssistAfterLabel)
	br := w.browser()
	br.login("ann", testPassword)
	path := fmt.Sprintf("/a/%d", w.assign.ID)
	tok := br.csrf(path) // the page read fills the evidence cache
	version := 0
	i := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sid := w.sentences[i%len(w.sentences)]
		i++
		form := url.Values{"label": {"faithful"}, "assistant_visible": {"false"}, "index": {"1"}, "version": {fmt.Sprint(version)}}
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/s/%d", w.srv.URL, w.assign.ID, sid), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", tok)
		req.Header.Set("HX-Request", "true")
		pg := br.do(req)
		if pg.status != http.StatusOK || !strings.Contains(pg.body, `class="verdicts"`) {
			b.Fatalf("save: %d %s", pg.status, pg.body)
		}
		version++
	}
}
