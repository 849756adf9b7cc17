package web_test

import (
	"fmt"
	"testing"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
)

// TestBrowserFullestCardFits fills a sentence's card as far as it goes at
// 1280 × 800: unfaithful with error types and an explanation, ambiguous
// with its type and readings, the assistant's verdicts shown; the card,
// from its title to its last line, still fits the window below the page's
// sticky head.
func TestBrowserFullestCardFits(t *testing.T) {
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
	keys(t, ctx, "u")
	keys(t, ctx, "1")
	keys(t, ctx, "2")
	keys(t, ctx, "a")
	keys(t, ctx, "a")
	waitJS(t, ctx, "the fullest card", `(() => { const c = document.querySelector(".label-card:not([hidden])");
		return c.querySelector("textarea[name=explanation]").offsetParent !== null && c.querySelector("select[name=ambiguity_type]").offsetParent !== null; })()`)
	fit, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const c = document.querySelector(".label-card:not([hidden])");
		c.scrollIntoView({ block: "start" });
		const head = document.querySelector(".ws-head");
		const top = head ? head.getBoundingClientRect().bottom : 0;
		const r = c.getBoundingClientRect();
		return r.height <= window.innerHeight - top ? "" : Math.round(r.height) + " px tall, " + Math.round(window.innerHeight - top) + " px to show it in";
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "fullest-card")
	if fit != "" {
		t.Errorf("the fullest card does not fit the window: %s", fit)
	}
}
