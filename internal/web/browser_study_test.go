package web_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// TestBrowserStudyParticipant: in Chromium, a participant opens a study's
// Prolific link on the demo project, accepts the consent, starts, labels
// their summary with the keyboard, submits with Ctrl+Enter and lands on
// the completion code with the link back to Prolific; the lead's study
// page then counts them completed.
func TestBrowserStudyParticipant(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ops := app.New(f.store)
	if err := ops.SetupDemo(f.ctx, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	p, err := f.store.ProjectBySlug(f.ctx, app.DemoSlug)
	if err != nil {
		t.Fatal(err)
	}
	// The shortest summary, so that the keyboard labels all of it.
	st, err := ops.CreateStudy(f.ctx, p, "pilot", []byte(`{"round":"crowd","conditions":["debate"],"items_per_participant":1,"attention_rate":0,
		"consent":"You agree to label summaries for a study of **summary faithfulness**.","completion":{"completed":"C0MPLETE"}}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t)
	entry := fmt.Sprintf("%s/s/%s?PROLIFIC_PID=5f0a1b2c3d4e5f6a7b8c9d0e&STUDY_ID=s1&SESSION_ID=x1", f.srv.URL, st.EntryToken)
	err = chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(entry),
		chromedp.WaitVisible(css(`[data-testid="study-consent"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "study-consent")
	err = chromedp.Do(ctx,
		chromedp.Click(css(`[data-testid="study-accept"]`)),
		chromedp.WaitVisible(css(`[data-testid="study-start"]`)),
		chromedp.Click(css(`[data-testid="study-start"]`)),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".sentence-pick").length`))
	if n == 0 {
		t.Fatal("no sentence to label")
	}
	for i := 0; i < n; i++ {
		keys(t, ctx, "f")
		keys(t, ctx, "a")
		keys(t, ctx, "j")
	}
	// The summary's own questions: relevance and topic category.
	keys(t, ctx, "r")
	keys(t, ctx, "5")
	keys(t, ctx, "t")
	keys(t, ctx, "1")
	waitJS(t, ctx, "every sentence labelled", `document.querySelectorAll(".sentence-pick .mark-none, .sentence-pick .mark-partial").length === 0`)
	keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	if err := chromedp.Do(ctx, chromedp.WaitVisible(css(`[data-testid="study-code"]`))); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("no completion code (at %s): %v", loc, err)
	}
	screenshot(t, ctx, "study-completed")
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="nav-tokens"], [data-testid="whoami"]').length`)); n != 0 {
		t.Error("a participant's page offers API tokens or account settings")
	}
	if code := text(t, ctx, `[data-testid="study-code"]`); code != "C0MPLETE" {
		t.Fatalf("code %q", code)
	}
	href, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="study-return"]').href`))
	if href != "https://app.prolific.com/submissions/complete?cc=C0MPLETE" {
		t.Fatalf("return link %q", href)
	}
	// The lead's page: one participant, completed, named by number.
	lea := f.user("lea", false)
	if err := f.store.SetMember(f.ctx, p.ID, lea.ID, domain.RoleLead); err != nil {
		t.Fatal(err)
	}
	lead := newBrowser(t)
	loginIn(t, lead, f.srv.URL, "lea", testPassword)
	err = chromedp.Do(lead, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(f.srv.URL+"/p/demo/studies/pilot"),
		chromedp.WaitVisible(css(`[data-testid="participants"]`)))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, lead, "study-page")
	row := text(t, lead, `[data-testid="participants"] tbody tr`)
	if !strings.Contains(row, "Participant 1") || !strings.Contains(row, "completed") || strings.Contains(row, "5f0a1b2c") {
		t.Fatalf("the lead's row: %q", row)
	}
}
