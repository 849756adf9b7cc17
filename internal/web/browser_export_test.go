package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserExportWithKeyboard chooses an export with the keyboard only,
// reaches the Download button by Tab, and fetches what the form asks for
// with the lead's session.
func TestBrowserExportWithKeyboard(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(w.srv.URL+"/p/alpha/export"),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "lea"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="export-form"]`)),
		chromedp.Focus(css(`[data-testid="export-what-gold"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	keys(t, ctx, kb.ArrowDown) // gold -> raw
	active := func() string {
		id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.testid || document.activeElement.name || ""`))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for range 20 {
		if active() == "export-anonymise" {
			break
		}
		keys(t, ctx, kb.Tab)
	}
	keys(t, ctx, " ") // tick anonymise
	keys(t, ctx, kb.Tab)
	if got := active(); got != "export-submit" {
		t.Fatalf("after the anonymise box, focus is on %q, want the Download button", got)
	}
	screenshot(t, ctx, "export")
	type fetched struct {
		Query, Status, What, Anon, Disposition, First string
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[fetched](`(async () => {
		const form = document.querySelector('[data-testid="export-form"]');
		const q = new URLSearchParams(new FormData(form)).toString();
		const r = await fetch(form.action + '?' + q);
		const body = await r.text();
		return {Query: q, Status: String(r.status), What: r.headers.get('X-Export-What'), Anon: r.headers.get('X-Export-Anonymised'),
			Disposition: r.headers.get('Content-Disposition'), First: body.split('\n')[1] || ''};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "200" || res.What != "raw" || res.Anon != "true" || !strings.HasPrefix(res.Disposition, "attachment") {
		t.Fatalf("download from the form: %+v", res)
	}
	aliases, err := w.store.Pseudonyms(w.ctx, w.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.First, `"annotator":"`+aliases.Username("bob")+`"`) && !strings.Contains(res.First, `"annotator":"`+aliases.Username("ann")+`"`) ||
		strings.Contains(res.First, `"ann"`) {
		t.Errorf("first raw record %s", res.First)
	}
}
