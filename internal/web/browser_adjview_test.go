package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"annotate/internal/tasks"
)

// TestBrowserAdjudicationFormInView: at 1280 × 800, following the queue's
// link to a disputed sentence puts its gold form's first field and its
// save button inside the window, so "s" never saves a decision the lead
// cannot see.
func TestBrowserAdjudicationFormInView(t *testing.T) {
	f := newAdjFixture(t)
	ctx := newBrowser(t)
	loginIn(t, ctx, f.srv.URL, "lea", testPassword)
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(f.srv.URL+"/p/alpha/adjudication"),
		chromedp.WaitVisible(css(`[data-testid="adj-queue"]`)),
		chromedp.Click(css(`[data-testid="item-1"] a`)),
		chromedp.WaitVisible(css(`[data-testid="save-gold-2"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	// The page scrolls once it has loaded: wait for both to be in view
	// (waitJS fails the test, naming the element, if they never are).
	for _, sel := range []string{`[data-testid="gold-form-2"] input[name=label]`, `[data-testid="save-gold-2"]`} {
		waitJS(t, ctx, sel+" inside the window", `(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect();
			return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; })()`)
	}
	screenshot(t, ctx, "adjudication-in-view")
}

// TestBrowserMissingListInView: on a 40-sentence summary, labelling the
// first sentences and pressing Ctrl+Enter is refused; the page that lists
// what is still missing shows that list in the window, not thousands of
// pixels above it.
func TestBrowserMissingListInView(t *testing.T) {
	lf := newLongFixture(t, tasks.AssistAlways)
	ctx := newBrowser(t)
	loginIn(t, ctx, lf.srv.URL, "ann", testPassword)
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", lf.srv.URL, lf.assign.ID)),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	// Label the first sentences, which moves the page down the summary.
	for range 12 {
		keys(t, ctx, "f")
		keys(t, ctx, "j")
	}
	keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	var loc string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !strings.Contains(loc, "incomplete=1"); time.Sleep(50 * time.Millisecond) {
		loc, _ = chromedp.Run(ctx, chromedp.Location())
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(css(`[data-testid="missing"]`))); err != nil {
		t.Fatalf("no missing list after the refused submit (at %s): %v", loc, err)
	}
	waitJS(t, ctx, "the missing list inside the window", `(() => { const m = document.querySelector('[data-testid="missing"]');
		if (!m) return false; const r = m.getBoundingClientRect(); return r.height > 0 && r.top > -2 && r.top < window.innerHeight; })()`)
}
