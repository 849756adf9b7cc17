package web_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"annotate/internal/domain"
	"annotate/internal/iaa"
)

// TestBrowserScaleWithKeyboard gives a project a 1–5 consistency scale; an
// annotator fills it on the labelling page with the keyboard only (Tab to
// the choice, type the value), and the lead's report, drafts included,
// shows its α, the one computed from the values.
func TestBrowserScaleWithKeyboard(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	set := w.project.Settings
	lo, hi := 1, 5
	set.Scales = []domain.Scale{{Name: "consistency", Title: "Consistency", Level: domain.LevelSummary, Min: &lo, Max: &hi,
		Anchors: map[string]string{"1": "contradicts the document", "5": "fully supported"}}}
	if err := w.store.UpdateSettings(w.ctx, w.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	// bob's values and ann's on the second summary are saved directly;
	// ann gives the first one in the browser.
	save := func(name string, i int, v string) {
		a := w.assign[name][i]
		cur := must(w.store.AssignmentByID(w.ctx, a.ID))(t)
		if _, err := w.store.SaveScaleScore(w.ctx, a.ID, a.UserID, cur.Version, 0, "consistency", v); err != nil {
			t.Fatal(err)
		}
	}
	save("bob", 0, "5")
	save("bob", 1, "1")
	save("ann", 1, "2")
	if w.assign["ann"][0].SummaryID != w.assign["bob"][0].SummaryID {
		t.Fatal("ann and bob do not share their first summary")
	}

	ctx := newBrowser(t)
	a := w.assign["ann"][0]
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", w.srv.URL, a.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="scale-consistency"]`)),
		// The comment box is the field before the ratings: Tab moves on.
		chromedp.Focus(css(`#summary-comment`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	keys(t, ctx, "\t")
	focused, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.testid || ""`))
	if focused != "scale-consistency" {
		t.Fatalf("after Tab the focus is on %q, want the consistency scale", focused)
	}
	keys(t, ctx, "4")
	waitJS(t, ctx, "the value saved", `document.querySelector('[data-testid="scale-consistency"]').value === "4" &&
		document.getElementById("save-status").textContent.startsWith("Saved")`)
	screenshot(t, ctx, "scales")
	scores, err := w.store.ScaleScores(w.ctx, a.ID)
	if err != nil || scores[domain.ScaleKey{Scale: "consistency"}] != "4" {
		t.Fatalf("stored %v, %v", scores, err)
	}

	// The lead's report shows the scale's α. Nobody has submitted yet and
	// the report counts only submitted work unless asked for drafts.
	want, err := iaa.Alpha(iaa.FromColumns([]float64{4, 2}, []float64{5, 1}), iaa.Ordinal)
	if err != nil {
		t.Fatal(err)
	}
	lead := newBrowser(t)
	err = chromedp.Do(lead,
		chromedp.Navigate(w.srv.URL+"/p/alpha/report?drafts=1"),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "lea"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="dim-consistency@summary"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	got := text(t, lead, `[data-testid="dim-consistency@summary"] [data-testid="stat-krippendorff_alpha"] [data-testid="value"]`)
	v, err := strconv.ParseFloat(got, 64)
	if err != nil || math.Abs(v-want) > 0.0005 {
		t.Fatalf("report shows alpha %q, want %.3f", got, want)
	}
	t.Logf("consistency alpha %.3f", want)
}

// TestBrowserSentenceScaleInItsCard gives a project a required
// sentence-level scale and an optional one. Each sits in the sentence's
// card, marked required or optional; s puts the focus on the focused
// sentence's first rating, a typed value saves it for that sentence, and
// Esc gives the sentence keys back (j moves on, s then reaches the next
// sentence's rating).
func TestBrowserSentenceScaleInItsCard(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	set := w.project.Settings
	lo, hi := 1, 3
	set.Scales = []domain.Scale{
		{Name: "support", Title: "Support", Level: domain.LevelSentence, Min: &lo, Max: &hi},
		{Name: "style", Title: "Style", Level: domain.LevelSentence, Categories: []string{"plain", "florid"}, Optional: true},
	}
	if err := w.store.UpdateSettings(w.ctx, w.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t)
	a := w.assign["ann"][0]
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", w.srv.URL, a.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="card-1"] [data-testid="scale-support-1"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="scales"]').length`)); n != 0 {
		t.Errorf("sentence-level scales also sit in a card of their own at the page's foot")
	}
	marks, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('[data-testid="card-1"] .scale-row')].map(r => r.textContent.replace(/\s+/g, " ").trim().split(" —")[0]).join(" | ")`))
	if !strings.HasPrefix(marks, "Support required") || !strings.Contains(marks, "Style optional") {
		t.Errorf("the card's ratings read %q", marks)
	}
	keys(t, ctx, "s")
	focused, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.testid || ""`))
	if focused != "scale-support-1" {
		t.Fatalf("after s the focus is on %q, want sentence 1's support rating", focused)
	}
	keys(t, ctx, "2")
	waitJS(t, ctx, "the value saved", `document.querySelector('[data-testid="scale-support-1"]').value === "2" &&
		document.getElementById("save-status").textContent.startsWith("Saved")`)
	keys(t, ctx, kb.Escape)
	keys(t, ctx, "j")
	keys(t, ctx, "s")
	focused, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.testid || ""`))
	if focused != "scale-support-2" {
		t.Fatalf("after Esc, j and s the focus is on %q, want sentence 2's support rating", focused)
	}
	screenshot(t, ctx, "sentence-scales")
	scores, err := w.store.ScaleScores(w.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	first := w.sentences[a.SummaryID][0]
	if scores[domain.ScaleKey{Sentence: first, Scale: "support"}] != "2" || len(scores) != 1 {
		t.Fatalf("stored %v, want support 2 on sentence 1 alone", scores)
	}
}
