package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFeedbackAfterClose: a lead closes a calibration round through
// its confirmation; ann then finds the feedback on her project page and
// reads bob's label (under his pseudonym) and the gold with its
// explanation, the differing sentences first.
func TestBrowserFeedbackAfterClose(t *testing.T) {
	t.Parallel()
	f := newFeedbackFixture(t, true)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/p/alpha/rounds/%d", f.srv.URL, f.round.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "lea"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="close-round"]`)),
		chromedp.Click(css(`[data-testid="close-round"]`)),
		chromedp.WaitVisible(css(`[data-testid="close-round-yes"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "round-close-confirm")
	if r := must(f.store.RoundByID(f.ctx, f.round.ID))(t); r.Status != "open" {
		t.Fatal("opening the confirmation closed the round")
	}
	err = chromedp.Do(ctx,
		chromedp.Click(css(`[data-testid="close-round-yes"]`)),
		chromedp.WaitVisible(css(`[data-testid="reopen-round"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if r := must(f.store.RoundByID(f.ctx, f.round.ID))(t); r.Status != "closed" {
		t.Fatalf("round status %q after confirming", r.Status)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(css(`header form button`)), // log out
		chromedp.WaitVisible(css(`#username`)),
		chromedp.Navigate(f.srv.URL+"/p/alpha"),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="feedback-links"] a`)),
		chromedp.Click(css(`[data-testid="feedback-links"] a`)),
		chromedp.WaitVisible(css(`[data-testid="feedback"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	aliases, err := f.store.Pseudonyms(f.ctx, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	first := text(t, ctx, `[data-testid="feedback-item"]`)
	for _, want := range []string{aliases.Username("bob"), "unfaithful", "Bob says the vote was five to two.", "Gold", "The transcript gives five to two, not unanimous.", "differed"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first feedback item lacks %q:\n%s", want, first)
		}
	}
	if got := text(t, ctx, `[data-testid="agree-gold"]`); got != "2 of 3 sentences with gold (67%)" { // unanimous gold resolved at submission counts too
		t.Errorf("agreement with gold %q", got)
	}
	screenshot(t, ctx, "feedback-fixture")
}
