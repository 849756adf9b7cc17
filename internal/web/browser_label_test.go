package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserCtrlEnterRightAfterTyping types an explanation and presses
// Ctrl+Enter at once, before the typing pause that starts a save: the
// text is saved and the summary submitted.
func TestBrowserCtrlEnterRightAfterTyping(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	sents := w.sentences[a.SummaryID]
	ctx := newBrowser(t)
	saved := `document.getElementById("save-status").textContent.startsWith("Saved")`
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", w.srv.URL, a.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	keys(t, ctx, "r")
	keys(t, ctx, " ")
	keys(t, ctx, "t")
	keys(t, ctx, " ")
	keys(t, ctx, kb.Escape)
	keys(t, ctx, "f")
	waitJS(t, ctx, "sentence 1 saved", saved+fmt.Sprintf(` && document.getElementById("mark-%d").textContent.includes("faithful")`, sents[0]))
	keys(t, ctx, "j")
	keys(t, ctx, "u")
	keys(t, ctx, "1")
	keys(t, ctx, "e")
	keys(t, ctx, "a", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	const why = "The document gives no vote count at all."
	keys(t, ctx, why)
	keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))

	next := fmt.Sprintf("/a/%d", w.assign["ann"][1].ID)
	var loc string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !strings.HasSuffix(loc, next); time.Sleep(50 * time.Millisecond) {
		loc, _ = chromedp.Run(ctx, chromedp.Location())
	}
	if !strings.HasSuffix(loc, next) {
		body, _ := chromedp.Run(ctx, chromedp.Text(css("main")))
		t.Fatalf("after Ctrl+Enter the page is %q, want %s; page: %s", loc, next, body)
	}
	labels, err := w.store.SentenceLabels(w.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := labels[sents[1]]; got.Label != "unfaithful" || got.Explanation != why {
		t.Fatalf("stored label of sentence 2: %+v", got)
	}
	if got, _ := w.store.AssignmentByID(w.ctx, a.ID); got.Status != "submitted" {
		t.Fatalf("assignment status %q, want submitted", got.Status)
	}
}
