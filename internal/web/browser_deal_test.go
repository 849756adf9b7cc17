package web_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
)

// TestBrowserDealChosenDocuments: a lead filters the documents by topic,
// ticks three of those shown, deals them in a calibration round to two
// annotators, and each of them gets exactly those documents' summaries;
// then, on the round's page, reassigns one of them to a third annotator
// with the keyboard.
func TestBrowserDealChosenDocuments(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lead := f.user("lea", false)
	ann, bob, cat := f.user("ann", false), f.user("bob", false), f.user("cat", false)
	p := f.project("pick", map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator, bob: domain.RoleAnnotator, cat: domain.RoleAnnotator})
	var docs []domain.DocumentInput
	for i := 1; i <= 6; i++ {
		topic := "budget"
		if i > 4 {
			topic = "parks"
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("doc%d", i), Sentences: []string{"The council met."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("sum%d", i), Topic: topic, Sentences: []domain.SentenceInput{{Text: "The council met."}}}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t)
	loginIn(t, ctx, f.srv.URL, "lea", testPassword)
	err := chromedp.Do(ctx,
		chromedp.Navigate(f.srv.URL+"/p/pick/rounds"),
		chromedp.WaitVisible(css(`[data-testid="doc-filter"]`)),
		chromedp.SetValue(css(`#f-topic`), "budget"),
		chromedp.Click(css(`[data-testid="doc-filter-apply"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	// Wait for the filtered page itself, not the one before it.
	var loc string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !strings.Contains(loc, "topic=budget"); time.Sleep(20 * time.Millisecond) {
		loc, _ = chromedp.Run(ctx, chromedp.Location())
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(css(`[data-testid="pick-doc1"]`))); err != nil {
		t.Fatalf("the filtered list (at %s): %v", loc, err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="pick-table"] tbody tr').length`))
	if err != nil || shown != 4 {
		t.Fatalf("documents shown for the topic: %d (%v), want 4", shown, err)
	}
	chosen := []string{"doc1", "doc3", "doc4"}
	for _, d := range chosen {
		if err := chromedp.Do(ctx, chromedp.Click(css(`[data-testid="pick-box-`+d+`"]`))); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []*domain.User{ann, bob} {
		if err := chromedp.Do(ctx, chromedp.Click(css(`input[name="annotators"][value="`+strconv.FormatInt(u.ID, 10)+`"]`))); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(css(`[data-testid="pick-documents"]`))); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "deal-chosen")
	err = chromedp.Do(ctx,
		chromedp.SendKeys(css(`#round-name`), "chosen"),
		chromedp.Click(css(`input[name="kind"][value="calibration"]`)),
		chromedp.Click(css(`[data-testid="round-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="progress"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sum1", "sum3", "sum4"}
	for _, u := range []*domain.User{ann, bob, cat} {
		q, err := f.store.Queue(f.ctx, p.ID, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range q {
			s, err := f.store.Summary(f.ctx, a.SummaryID)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s.ExternalID)
		}
		slices.Sort(got)
		if u == cat {
			if len(got) != 0 {
				t.Errorf("cat, not chosen, got %v", got)
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s got %v, want %v", u.Username, got, want)
		}
	}
	// On the round's page the lead chooses cat in the one list of
	// annotators and presses the "reassign" button of one of bob's
	// assignments with the keyboard: it moves to cat.
	q, err := f.store.Queue(f.ctx, p.ID, bob.ID)
	if err != nil || len(q) == 0 {
		t.Fatalf("bob's queue: %v %v", q, err)
	}
	move := q[0]
	err = chromedp.Do(ctx,
		chromedp.WaitVisible(css(`[data-testid="reassign-form"]`)),
		chromedp.SetValue(css(`#reassign-to`), strconv.FormatInt(cat.ID, 10)),
		chromedp.Focus(css(fmt.Sprintf(`button[form="reassign"][formaction$="/assignments/%d/reassign"]`, move.ID))),
		chromedp.KeyEvent("\r"),
	)
	if err != nil {
		t.Fatal(err)
	}
	// The page that answers says so (the round's page before it showed
	// the dealing's message); the page changes while this asks.
	var flash string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !strings.Contains(flash, "moved"); time.Sleep(20 * time.Millisecond) {
		flash, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="flash"]')?.textContent || ''`))
	}
	if !strings.Contains(flash, "moved") {
		t.Fatalf("flash after the reassignment: %q", flash)
	}
	if q, err := f.store.Queue(f.ctx, p.ID, cat.ID); err != nil || len(q) != 1 || q[0].SummaryID != move.SummaryID {
		t.Fatalf("cat's queue after the reassignment: %+v (%v), want bob's summary %d", q, err, move.SummaryID)
	}
}
