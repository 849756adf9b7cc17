package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/studies"
)

// TestBrowserStudyScreeningAndChecks, in Chromium: one participant enters
// by a Prolific link, accepts the consent, fails the screening test and
// gets the screened-out code; another passes it, labels their item and
// fails the attention check mixed in with it, gets the completion code
// all the same, and is excluded: their item goes back to be dealt again.
func TestBrowserStudyScreeningAndChecks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	var docs []domain.DocumentInput
	for i := 1; i <= 6; i++ {
		sent := domain.SentenceInput{Text: "The council deferred the budget."}
		if i > 3 { // summaries with gold: the screening test and the checks
			sent.Gold = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "It was approved."}
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council approved the budget."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{sent}}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(f.store)
	st, err := ops.CreateStudy(f.ctx, p, "pilot", []byte(`{"round":"crowd","k":1,"items_per_participant":1,"attention_rate":0.5,
		"screening":{"items":1,"pass":1},"exclude":"any_failed_check","consent":"You agree to take part.",
		"completion":{"completed":"DONE1","screened_out":"OUT1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	// label labels the open summary: unfaithful with a reason, or
	// faithful; then submits with Ctrl+Enter and waits for the next page.
	label := func(ctx context.Context, unfaithful bool) {
		t.Helper()
		if unfaithful {
			keys(t, ctx, "u")
			keys(t, ctx, "1")
			keys(t, ctx, "e")
			keys(t, ctx, "a", chromedp.KeyModifiers(chromedp.ModifierCtrl))
			keys(t, ctx, "It was approved, not deferred.")
			keys(t, ctx, kb.Escape)
		} else {
			keys(t, ctx, "f")
		}
		keys(t, ctx, "a")
		keys(t, ctx, "r")
		keys(t, ctx, "5")
		keys(t, ctx, kb.Escape)
		waitJS(t, ctx, "the sentence labelled", `document.querySelectorAll(".sentence-pick .mark-none, .sentence-pick .mark-partial").length === 0`)
		was, _ := chromedp.Run(ctx, chromedp.Location())
		keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))
		// Wait for the browser to leave the page (an event, polled).
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			loc, err := chromedp.Run(ctx, chromedp.Location())
			if err == nil && loc != was {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("still on %s after Ctrl+Enter", was)
			}
		}
		chromedp.Run(ctx, chromedp.WaitReady(css("body")))
	}
	enter := func(pid string) context.Context {
		t.Helper()
		ctx := newBrowser(t)
		err := chromedp.Do(ctx,
			chromedp.EmulateViewport(1280, 800),
			chromedp.Navigate(fmt.Sprintf("%s/s/%s?PROLIFIC_PID=%s&STUDY_ID=s1&SESSION_ID=x%s", f.srv.URL, st.EntryToken, pid, pid)),
			chromedp.WaitVisible(css(`[data-testid="study-accept"]`)),
			chromedp.Click(css(`[data-testid="study-accept"]`)),
			chromedp.WaitVisible(css(`[data-testid="study-start"]`)),
			chromedp.Click(css(`[data-testid="study-start"]`)),
			chromedp.WaitVisible(css(`#workspace`)),
		)
		if err != nil {
			t.Fatal(err)
		}
		return ctx
	}

	// The first fails the test: screened out.
	one := enter("aaaa1111")
	label(one, false)
	if err := chromedp.Do(one, chromedp.WaitVisible(css(`[data-testid="study-code"]`))); err != nil {
		t.Fatal(err)
	}
	if code := text(t, one, `[data-testid="study-code"]`); code != "OUT1" {
		t.Fatalf("the failing participant's code %q", code)
	}

	// The second passes it, then labels an item and a check, both faithful.
	two := enter("bbbb2222")
	label(two, true)
	for range 2 {
		if err := chromedp.Do(two, chromedp.WaitVisible(css(`#workspace`))); err != nil {
			t.Fatal(err)
		}
		label(two, false)
	}
	if err := chromedp.Do(two, chromedp.WaitVisible(css(`[data-testid="study-code"]`))); err != nil {
		t.Fatal(err)
	}
	if code := text(t, two, `[data-testid="study-code"]`); code != "DONE1" {
		t.Fatalf("the second participant's code %q", code)
	}
	ps, err := ops.Studies().Participants(f.ctx, st.ID)
	if err != nil || len(ps) != 2 {
		t.Fatalf("participants %v %v", ps, err)
	}
	if ps[0].Phase != studies.PhaseScreenedOut || ps[1].Phase != studies.PhaseCompleted || !ps[1].Excluded {
		t.Fatalf("participants %+v", ps)
	}
	// The excluded participant's item is free to be dealt again.
	prog := must(f.store.RoundProgress(f.ctx, st.RoundID))(t)
	for _, pr := range prog {
		if pr.Total != 0 {
			t.Errorf("%s still holds %d summaries", pr.Username, pr.Total)
		}
	}
	if strings.Contains(text(t, two, "body"), "excluded") {
		t.Error("the participant's page says they were excluded")
	}
}
