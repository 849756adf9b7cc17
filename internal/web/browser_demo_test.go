package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"annotate/internal/demo"
	"annotate/internal/domain"
)

// TestBrowserDemoPages opens the main pages of a project built from the
// demo corpus as a lead and as an annotator. With ANNOTATE_SCREENSHOTS set
// it saves the README's pictures.
func TestBrowserDemoPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lead := f.user("lead", false)
	ann := f.user("ann1", false)
	ann2 := f.user("ann2", false)
	p, err := f.store.CreateProject(f.ctx, domain.Project{Slug: "demo", Name: "Demo: city council meetings", Settings: domain.DefaultSettings(),
		Guidelines: "1. Judge against the transcript alone.\n2. Opinions must stay opinions."})
	if err != nil {
		t.Fatal(err)
	}
	for u, role := range map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator, ann2: domain.RoleAnnotator} {
		f.store.SetMember(f.ctx, p.ID, u.ID, role)
	}
	docs, err := demo.Documents()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ids := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	r, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "calibration-1", Kind: domain.RoundCalibration, Annotators: []int64{ann.ID, ann2.ID}, Summaries: ids[:6]})
	if err != nil {
		t.Fatal(err)
	}
	q := must(f.store.Queue(f.ctx, p.ID, ann.ID))(t)

	ctx := newBrowser(t)
	login := func(user string) {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Navigate(f.srv.URL+"/login"),
			chromedp.WaitVisible(css(`#username`)),
			chromedp.SendKeys(css(`#username`), user),
			chromedp.SendKeys(css(`#password`), testPassword+"\n"),
			chromedp.WaitVisible(css(`[data-testid="whoami"]`)),
		)
		if err != nil {
			t.Fatal(err)
		}
	}
	login("lead")
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+"/p/demo"), chromedp.WaitVisible(css(`[data-testid="documents"]`))); err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, `[data-testid="count-summaries"]`); got != "53" {
		t.Errorf("demo summaries = %s, want 53", got)
	}
	screenshot(t, ctx, "project")
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/p/demo/rounds/%d", f.srv.URL, r.ID)), chromedp.WaitVisible(css(`[data-testid="progress"]`))); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "round")

	// Log out through the form, as a person would.
	chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+"/projects"), chromedp.Click(css(`button.link`)), chromedp.WaitVisible(css(`#username`)))
	login("ann1")
	err = chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", f.srv.URL, q[0].ID)),
		chromedp.WaitVisible(css(`#workspace`)),
		chromedp.KeyEvent("u"),
		chromedp.WaitVisible(css(`.assist:not(.assist-hidden)`)),
		chromedp.KeyEvent("1"),
	)
	if err != nil {
		t.Fatal(err)
	}
	// The revealed panel cites document units; a chip highlights its unit.
	if err := chromedp.Do(ctx, chromedp.Click(css(`.label-card:not([hidden]) .chip`)), chromedp.WaitVisible(css(`.unit.cited`))); err != nil {
		t.Fatalf("evidence chip: %v", err)
	}
	screenshot(t, ctx, "demo-labelling")
}
