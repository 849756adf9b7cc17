package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserReportKeyboard opens the report as a lead, picks a round with
// the keyboard only and checks that the page's stylesheet and figures load
// under the content security policy.
func TestBrowserReportKeyboard(t *testing.T) {
	t.Parallel()
	r := newReportFixture(t)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(r.srv.URL+"/p/rep/report"),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "lea"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="report-filters"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "report.css applied", `getComputedStyle(document.querySelector(".report-filters")).display === "flex"`)
	waitJS(t, ctx, "heatmap drawn", `document.querySelector("svg.heatmap").getBoundingClientRect().width > 100`)
	screenshot(t, ctx, "report")

	// The round menu: All rounds, c1, c2. One step down is c1; Tab past
	// the dimension, labels and interval menus reaches the Show button and
	// Enter submits.
	if err := chromedp.Do(ctx, chromedp.Focus(css(`#report-round`))); err != nil {
		t.Fatal(err)
	}
	keys(t, ctx, kb.ArrowDown)
	for range 4 {
		keys(t, ctx, "\t")
	}
	focused, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.testid || ""`))
	if focused != "report-apply" {
		t.Fatalf("after four tabs the focus is on %q, want the Show button", focused)
	}
	keys(t, ctx, "\r")
	var loc string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !strings.Contains(loc, "round=c1"); time.Sleep(100 * time.Millisecond) {
		loc, _ = chromedp.Run(ctx, chromedp.Location())
	}
	if !strings.Contains(loc, "round=c1") {
		t.Fatalf("after Enter the page is %q, want round=c1", loc)
	}
	waitJS(t, ctx, "scope of round c1", `document.querySelector('[data-testid="report-scope"]').textContent.includes("Round c1")`)
}

// TestBrowserReportFitsTheWidth opens the report at 1280 px and at a phone
// width: the page itself never scrolls sideways; wide tables scroll inside
// their own box, which stays within the window.
func TestBrowserReportFitsTheWidth(t *testing.T) {
	t.Parallel()
	r := newReportFixture(t)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(r.srv.URL+"/p/rep/report"),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "lea"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="report-filters"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(w.name, func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.width, w.height), chromedp.Reload(),
				chromedp.WaitVisible(css(`[data-testid="report-filters"]`))); err != nil {
				t.Fatal(err)
			}
			waitJS(t, ctx, "report.css applied", `getComputedStyle(document.querySelector(".report-filters")).display === "flex"`)
			waitJS(t, ctx, "no sideways scroll of the page", `document.scrollingElement.scrollWidth <= window.innerWidth`)
			waitJS(t, ctx, "every table box within the window", `[...document.querySelectorAll(".table-wrap, figure.card")].every(e => e.getBoundingClientRect().right <= window.innerWidth + 0.5)`)
			screenshot(t, ctx, "report-"+w.name)
		})
	}
}
