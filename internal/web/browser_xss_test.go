package web_test

import (
	"fmt"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
)

// hostile is markup that would run script if a page put it in as HTML.
const hostile = `<script>window.__xss="script"</script><img src=x onerror="window.__xss='img'">`

// TestBrowserShowsMarkupAsText fills a project with markup in every place a
// user can write text (document, summary, topic, key fact, explanation,
// guidelines) and opens the annotator's and the lead's pages in Chromium:
// the markup must be shown as text and no injected script may run.
func TestBrowserShowsMarkupAsText(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lead := f.user("lea", false)
	ann := f.user("ann", false)
	p := f.project("xss", map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator})
	guidelines := "1. Judge the summary.\n\n" + hostile + "\n\n[a link](javascript:window.__xss='md')\n"
	if err := f.store.UpdateSettings(f.ctx, p.ID, domain.DefaultSettings(), guidelines); err != nil {
		t.Fatal(err)
	}
	doc := domain.DocumentInput{
		ExternalID: "doc-x", Kind: domain.KindProse,
		Sentences: []string{"The council met on Monday.", "It said " + hostile + " twice.", "The vote was close."},
		KeyFacts:  []domain.KeyFactInput{{Topic: "Topic " + hostile, Text: "Fact " + hostile}},
		Summaries: []domain.SummaryInput{{ExternalID: "s-x", Topic: "Topic " + hostile, Model: "m",
			Sentences: []domain.SentenceInput{{Text: "The council met. " + hostile}}}},
	}
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	q, err := f.store.Queue(f.ctx, p.ID, ann.ID)
	if err != nil || len(q) != 1 {
		t.Fatalf("queue: %v %v", q, err)
	}
	sum := must(f.store.Summary(f.ctx, q[0].SummaryID))(t)
	if _, err := f.store.SaveSentenceLabel(f.ctx, q[0].ID, ann.ID, 0, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID,
		Label: "unfaithful", ErrorTypes: []string{"extrinsic_information"}, Explanation: "Because " + hostile}); err != nil {
		t.Fatal(err)
	}

	// No script of the page's own is inline (the CSP forbids it), so any
	// script element without a src, any onerror attribute and any
	// javascript: link came from the data.
	const injected = `window.__xss === undefined
		&& document.querySelectorAll("script:not([src]), [onerror], a[href^='javascript:']").length === 0`

	visit := func(t *testing.T, user, path string, wantText ...string) {
		ctx := newBrowser(t)
		err := chromedp.Do(ctx,
			chromedp.Navigate(f.srv.URL+path),
			chromedp.WaitVisible(css(`#username`)),
			chromedp.SendKeys(css(`#username`), user),
			chromedp.SendKeys(css(`#password`), testPassword+"\n"),
			chromedp.WaitNotPresent(css(`#username`)),
			chromedp.WaitVisible(css(`main`)),
		)
		if err != nil {
			t.Fatal(err)
		}
		safe, err := chromedp.Run(ctx, chromedp.Evaluate[bool](injected))
		if err != nil {
			t.Fatal(err)
		}
		if !safe {
			t.Errorf("%s: injected markup became HTML", path)
		}
		body, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.textContent`))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wantText {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the text %q is not shown in %q", path, w, body)
			}
		}
	}
	t.Run("labelling page", func(t *testing.T) {
		visit(t, "ann", fmt.Sprintf("/a/%d", q[0].ID), `<script>window.__xss="script"</script>`, "Fact <script>", "It said <script>")
	})
	t.Run("label history", func(t *testing.T) {
		visit(t, "lea", fmt.Sprintf("/p/xss/history/%d", q[0].ID), "Because <script>")
	})
	t.Run("project page", func(t *testing.T) {
		visit(t, "lea", "/p/xss")
	})
}
