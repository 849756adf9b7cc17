package web_test

import (
	"fmt"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserAdjudicateWithKeyboard: a lead opens the queue, follows the
// disagreement to its summary, decides the gold with the keyboard only and
// sees the provenance and the history entry, then downloads the gold set
// from the Export page and finds the decision in it.
func TestBrowserAdjudicateWithKeyboard(t *testing.T) {
	t.Parallel()
	f := newAdjFixture(t)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(f.srv.URL+"/p/alpha/adjudication"),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "lea"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="adj-queue"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "adjudication-queue")
	if err := chromedp.Do(ctx, chromedp.Click(css(`[data-testid="item-1"] a`)), chromedp.WaitVisible(css(`#adjudication`))); err != nil {
		t.Fatal(err)
	}
	// The queue's link lands on the disputed sentence, not the first one.
	card := fmt.Sprintf(`document.getElementById("card-%d")`, f.sents[1])
	waitJS(t, ctx, "sentence 2 shown", `!`+card+`.hidden && document.getElementById("card-`+fmt.Sprint(f.sents[0])+`").hidden`)
	if got := text(t, ctx, `[data-testid="votes-2"]`); !strings.Contains(got, "The document says five to two.") || !strings.Contains(got, "bob") {
		t.Fatalf("votes of sentence 2: %q", got)
	}

	keys(t, ctx, "u")
	keys(t, ctx, "2") // the second TofuEval type: Mis-Referencing
	keys(t, ctx, "n")
	keys(t, ctx, "a", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	keys(t, ctx, "The vote was five to two.")
	keys(t, ctx, kb.Escape)
	keys(t, ctx, "s")
	waitJS(t, ctx, "provenance adjudicated", `(document.querySelector('[data-testid="provenance-2"]')||{}).textContent === "adjudicated"`)
	waitJS(t, ctx, "history entry", `document.querySelector('[data-testid="gold-history"]') !== null &&
		document.querySelector('[data-testid="gold-history"] tbody tr').textContent.includes("adjudicated")`)
	// The swapped card stays in view and its mark follows.
	waitJS(t, ctx, "card shown after the swap", `!`+card+`.hidden`)
	if m := text(t, ctx, `[data-testid="gmark-2"]`); !strings.Contains(m, "adjudicated") {
		t.Fatalf("sentence mark %q", m)
	}
	screenshot(t, ctx, "adjudication-decided")

	g, err := f.store.SummaryGold(f.ctx, f.sum)
	if err != nil {
		t.Fatal(err)
	}
	got := g[f.sents[1]]
	if got.Provenance != domain.ProvAdjudicated || got.Label != domain.LabelUnfaithful || strings.Join(got.ErrorTypes, ",") != "mis_referencing" ||
		got.Note != "The vote was five to two." || got.DecidedByName != "lea" {
		t.Fatalf("stored gold %+v", got)
	}

	// j/k move between sentences; m fills in the most frequent values.
	keys(t, ctx, "k")
	waitJS(t, ctx, "sentence 1 shown", `!document.getElementById("card-`+fmt.Sprint(f.sents[0])+`").hidden`)
	keys(t, ctx, "m")
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector("#card-%d input[name=label][value=faithful]").checked`, f.sents[0])))
	if err != nil || !ok {
		t.Fatalf("m did not fill in the suggestion (%v)", err)
	}

	// The lead downloads the gold set from the Export page and finds the
	// decision in it.
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+"/p/alpha/export"), chromedp.WaitVisible(css(`[data-testid="export-form"]`))); err != nil {
		t.Fatal(err)
	}
	type fetched struct{ Status, Disposition, Body string }
	res, err := chromedp.Run(ctx, chromedp.Evaluate[fetched](`(async () => {
		const form = document.querySelector('[data-testid="export-form"]');
		const data = new FormData(form);
		data.set('what', 'gold'); data.set('format', 'jsonl');
		const r = await fetch(form.action + '?' + new URLSearchParams(data).toString());
		return {Status: String(r.status), Disposition: r.headers.get('Content-Disposition') || '', Body: await r.text()};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "200" || !strings.Contains(res.Disposition, "alpha-gold-") {
		t.Fatalf("gold download: status %s, %q", res.Status, res.Disposition)
	}
	if !strings.Contains(res.Body, `"provenance":"adjudicated"`) || !strings.Contains(res.Body, `"note":"The vote was five to two."`) || !strings.Contains(res.Body, `"decided_by":"lea"`) {
		t.Fatalf("the downloaded gold set lacks the decision:\n%s", res.Body)
	}
}
