package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
)

// TestBrowserAdjudicationFormInView: at 1280 × 800, following the queue's
// link to a disputed sentence puts its gold form's first field and its
// save button inside the window, so "s" never saves a decision the lead
// cannot see.
func TestBrowserAdjudicationFormInView(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	lf := newLongFixture(t, domain.AssistAlways)
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

// TestBrowserAdjudicateAFlaggedSentence: ann and bob agree on both
// sentences and bob flags the second. The lead filters the queue to
// flagged sentences, opens the one there, reads bob's note on its card,
// decides it with the keyboard, and the gold history below shows the
// decision in full at 1280 × 800: its table does not scroll sideways.
func TestBrowserAdjudicateAFlaggedSentence(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	f := &adjFixture{workFixture: w, sum: w.assign["ann"][0].SummaryID}
	f.sents = w.sentences[f.sum]
	const note = "The document gives the vote as five to two, not unanimous."
	flagged := faithfulLabel()
	flagged.Flag = note
	f.submit(t, "ann", f.sum, faithfulLabel(), faithfulLabel())
	f.submit(t, "bob", f.sum, faithfulLabel(), flagged)

	ctx := newBrowser(t)
	loginIn(t, ctx, f.srv.URL, "lea", testPassword)
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(f.srv.URL+"/p/alpha/adjudication?flagged=1"),
		chromedp.WaitVisible(css(`[data-testid="adj-queue"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="adj-queue"] tbody tr').length`))
	if rows != 1 {
		t.Fatalf("the flagged-only queue has %d rows, want 1", rows)
	}
	screenshot(t, ctx, "adjudication-queue-flagged")
	err = chromedp.Do(ctx,
		chromedp.Click(css(`[data-testid="adj-queue"] tbody tr a`)),
		chromedp.WaitVisible(css(`[data-testid="adj-flags-2"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, `[data-testid="adj-flags-2"] li`); got != "bob: "+note {
		t.Errorf("the card's flag reads %q", got)
	}
	if body := text(t, ctx, `body`); strings.Contains(body, "@When") {
		t.Errorf("the page shows template code: %q", body)
	}
	screenshot(t, ctx, "adjudication-flagged-card")
	// The form holds the annotators' values: faithful, not ambiguous.
	keys(t, ctx, "f")
	keys(t, ctx, "s")
	waitJS(t, ctx, "the decision in the history", `[...document.querySelectorAll('[data-testid="gold-history"] tbody tr')].some(r => r.textContent.includes("adjudicated"))`)
	wide, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const b = document.querySelector('[data-testid="gold-history"]').closest(".table-wrap");
		return b.scrollWidth > b.clientWidth + 1 ? b.scrollWidth + ">" + b.clientWidth : ""; })()`))
	if wide != "" {
		t.Errorf("the gold history scrolls sideways at 1280 px: %s", wide)
	}
	fullScreenshot(t, ctx, "adjudication-flagged")
	gold, err := f.store.SummaryGold(f.ctx, f.sum)
	if err != nil {
		t.Fatal(err)
	}
	if g := gold[f.sents[1]]; g.Provenance != domain.ProvAdjudicated || g.Label != domain.LabelFaithful {
		t.Errorf("the flagged sentence's gold is %+v, want adjudicated faithful", g)
	}
}
