package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// waitJS polls a JavaScript predicate on the page until it is true.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

func keys(t *testing.T, ctx context.Context, k string, opts ...chromedp.KeyOption) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(k, opts...)); err != nil {
		t.Fatalf("keys %q: %v", k, err)
	}
}

// TestBrowserLabelWithKeyboard labels a whole summary with the keyboard
// only, submits it, reloads it and finds every label there.
func TestBrowserLabelWithKeyboard(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	sents := w.sentences[a.SummaryID]
	ctx := newBrowser(t)
	page := fmt.Sprintf("%s/a/%d", w.srv.URL, a.ID)
	mark := func(i int) string { return fmt.Sprintf(`document.getElementById("mark-%d").textContent`, sents[i]) }
	saved := `document.getElementById("save-status").textContent.startsWith("Saved")`

	err := chromedp.Do(ctx,
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "workspace-start")

	// Sentence 1: faithful, not ambiguous (a answers "no" first).
	keys(t, ctx, "f")
	waitJS(t, ctx, "sentence 1 marked", mark(0)+`.includes("faithful")`)
	keys(t, ctx, "a")
	// Sentence 2: unfaithful, first error type, an explanation.
	keys(t, ctx, "j")
	keys(t, ctx, "u")
	keys(t, ctx, "1")
	keys(t, ctx, "e")
	// Select whatever the field holds (DevTools delivers the "e" itself to
	// the field it focused), then type the explanation over it.
	keys(t, ctx, "a", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	keys(t, ctx, "The vote count is not in the document.")
	keys(t, ctx, kb.Escape)
	waitJS(t, ctx, "sentence 2 complete", mark(1)+`.includes("✗ unfaithful")`)
	// The whole summary: relevance 5 and topic category "main".
	keys(t, ctx, "r")
	keys(t, ctx, " ")
	keys(t, ctx, "t")
	keys(t, ctx, " ")
	keys(t, ctx, kb.Escape)
	waitJS(t, ctx, "last save", saved+` && document.querySelector("input[name=topic_category][value=main]").checked`)
	// Every save has reached the store: the summary label and both
	// sentences' labels.
	waitFor(t, "the labels stored", func() bool {
		sl, err := w.store.SummaryLabelOf(w.ctx, a.ID)
		if err != nil || sl.Relevance != 5 || sl.TopicCategory != "main" {
			return false
		}
		ls, err := w.store.SentenceLabels(w.ctx, a.ID)
		return err == nil && ls[sents[0]].Label == "faithful" && ls[sents[1]].Explanation == "The vote count is not in the document."
	})
	waitJS(t, ctx, "saves settled", saved)
	screenshot(t, ctx, "workspace")

	// Ctrl+Enter submits and moves on to the next summary.
	next := fmt.Sprintf("/a/%d", w.assign["ann"][1].ID)
	keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	var loc string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !strings.HasSuffix(loc, next); time.Sleep(100 * time.Millisecond) {
		loc, _ = chromedp.Run(ctx, chromedp.Location())
	}
	if !strings.HasSuffix(loc, next) {
		t.Fatalf("after Ctrl+Enter the page is %q, want %s", loc, next)
	}

	// Reload the first summary: every label is there.
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible(css(`#workspace`))); err != nil {
		t.Fatal(err)
	}
	m1, _ := chromedp.Run(ctx, chromedp.Evaluate[string](mark(0)))
	m2, _ := chromedp.Run(ctx, chromedp.Evaluate[string](mark(1)))
	expl, _ := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById("expl-%d").value`, sents[1])))
	rel, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("input[name=relevance][value='5']").checked`))
	if !strings.Contains(m1, "faithful") || !strings.Contains(m2, "✗ unfaithful") || expl != "The vote count is not in the document." || !rel {
		t.Fatalf("after reload: mark1=%q mark2=%q explanation=%q relevance5=%v", m1, m2, expl, rel)
	}
	labels, err := w.store.SentenceLabels(w.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	l1, l2 := labels[sents[0]], labels[sents[1]]
	if l1.Label != "faithful" || l1.Ambiguous == nil || *l1.Ambiguous || l2.Label != "unfaithful" || len(l2.ErrorTypes) != 1 || l2.ErrorTypes[0] != "extrinsic_information" {
		t.Fatalf("stored labels: %+v / %+v", l1, l2)
	}
	got := must(w.store.AssignmentByID(w.ctx, a.ID))(t)
	if got.Status != "submitted" {
		t.Fatalf("assignment status %q, want submitted", got.Status)
	}
}
