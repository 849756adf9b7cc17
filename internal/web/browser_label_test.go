package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserCtrlEnterRightAfterTyping types an explanation and presses
// Ctrl+Enter at once, before the typing pause that starts a save: the
// text is saved and the summary submitted. The active time the page
// counted, all of it less than the 30 s report interval, is recorded:
// it goes with the submit (it used to be lost, recording 0 s).
func TestBrowserCtrlEnterRightAfterTyping(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	sents := w.sentences[a.SummaryID]
	ctx := newBrowser(t)
	saved := `document.getElementById("save-status").textContent.startsWith("Saved")`
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", w.srv.URL, a.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	keys(t, ctx, "r")
	keys(t, ctx, " ")
	keys(t, ctx, "t")
	keys(t, ctx, " ")
	keys(t, ctx, kb.Escape)
	keys(t, ctx, "f")
	waitJS(t, ctx, "sentence 1 saved", saved+fmt.Sprintf(` && document.getElementById("mark-%d").textContent.includes("faithful")`, sents[0]))
	keys(t, ctx, "j")
	keys(t, ctx, "u")
	keys(t, ctx, "1")
	keys(t, ctx, "e")
	keys(t, ctx, "a", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	const why = "The document gives no vote count at all."
	keys(t, ctx, why)
	// The page counts a second of activity at a time: wait until it has
	// counted two, then read what it shows.
	waitJS(t, ctx, "two seconds counted", `parseInt(document.getElementById("timer").textContent.split(":").pop(), 10) >= 2`)
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`parseInt(document.getElementById("timer").textContent.split(":").pop(), 10)`))
	if err != nil {
		t.Fatal(err)
	}
	keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))

	next := fmt.Sprintf("/a/%d", w.assign["ann"][1].ID)
	var loc string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !strings.HasSuffix(loc, next); time.Sleep(50 * time.Millisecond) {
		loc, _ = chromedp.Run(ctx, chromedp.Location())
	}
	if !strings.HasSuffix(loc, next) {
		body, _ := chromedp.Run(ctx, chromedp.Text(css("main")))
		t.Fatalf("after Ctrl+Enter the page is %q, want %s; page: %s", loc, next, body)
	}
	labels, err := w.store.SentenceLabels(w.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := labels[sents[1]]; got.Label != "unfaithful" || got.Explanation != why {
		t.Fatalf("stored label of sentence 2: %+v", got)
	}
	got := must(w.store.AssignmentByID(w.ctx, a.ID))(t)
	if got.Status != "submitted" {
		t.Fatalf("assignment status %q, want submitted", got.Status)
	}
	// A second may tick between reading the timer and the submit.
	if got.ActiveSeconds < shown || got.ActiveSeconds > shown+1 {
		t.Errorf("recorded %d s of active time; the page showed %d s just before Ctrl+Enter", got.ActiveSeconds, shown)
	}
}

// TestBrowserKeyboardFixes: e puts the cursor after the text already
// there; f on an unfaithful sentence clears its explanation and error
// types (saved so) and z brings them back; a answers "no", then flips
// between yes and no;
// after r the arrows stay in the relevance scale.
func TestBrowserKeyboardFixes(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	s1 := w.sentences[a.SummaryID][0]
	ctx := newBrowser(t)
	saved := `document.getElementById("save-status").textContent.startsWith("Saved")`
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", w.srv.URL, a.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	stored := func() (string, string, int, string) {
		l := mustLabel(t, w, a.ID, s1)
		amb := ""
		if l.Ambiguous != nil {
			amb = fmt.Sprint(*l.Ambiguous)
		}
		return l.Label, l.Explanation, len(l.ErrorTypes), amb
	}
	expl := fmt.Sprintf(`document.getElementById("expl-%d").value`, s1)

	keys(t, ctx, "u")
	keys(t, ctx, "1")
	keys(t, ctx, "e")
	keys(t, ctx, "First part.")
	keys(t, ctx, kb.Escape)
	keys(t, ctx, "e")
	keys(t, ctx, " Second part.")
	keys(t, ctx, kb.Escape)
	waitJS(t, ctx, "explanation saved", saved+` && `+expl+` === "First part. Second part."`)
	waitFor(t, "stored explanation", func() bool {
		l, e, n, _ := stored()
		return l == "unfaithful" && e == "First part. Second part." && n == 1
	})

	keys(t, ctx, "f")
	waitJS(t, ctx, "undo offered", `!document.querySelector("[data-testid=undo-1]").hidden && `+expl+` === ""`)
	waitFor(t, "faithful stored without explanation", func() bool { l, e, n, _ := stored(); return l == "faithful" && e == "" && n == 0 })
	keys(t, ctx, "z")
	waitFor(t, "undo stored", func() bool {
		l, e, n, _ := stored()
		return l == "unfaithful" && e == "First part. Second part." && n == 1
	})

	keys(t, ctx, "a")
	waitFor(t, "ambiguous no", func() bool { _, _, _, amb := stored(); return amb == "false" })
	keys(t, ctx, "a")
	waitFor(t, "ambiguous yes", func() bool { _, _, _, amb := stored(); return amb == "true" })
	keys(t, ctx, "a")
	waitFor(t, "ambiguous no again", func() bool { _, _, _, amb := stored(); return amb == "false" })

	keys(t, ctx, "r")
	keys(t, ctx, " ")
	keys(t, ctx, kb.ArrowDown)
	waitJS(t, ctx, "relevance 4 chosen with the arrow", `document.querySelector("input[name=relevance][value='4']").checked && document.activeElement.name === "relevance"`)
	if cur, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("[data-testid=pick-1]").classList.contains("current")`)); !cur {
		t.Fatal("the arrow in the relevance scale moved to another sentence")
	}
}

func mustLabel(t *testing.T, w *workFixture, assignment, sentence int64) domain.SentenceLabel {
	t.Helper()
	ls, err := w.store.SentenceLabels(w.ctx, assignment)
	if err != nil {
		t.Fatal(err)
	}
	return ls[sentence]
}

// waitFor polls a condition on the server's side until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("waiting for %s: timed out", what)
}

// TestBrowserConflictShowsSavedLabel: another tab saves first; the next
// change here is refused, the card goes back to the saved label, the
// message with its reload button is in view beside the sentence, and
// Ctrl+Enter does not submit.
func TestBrowserConflictShowsSavedLabel(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	s1 := w.sentences[a.SummaryID][0]
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", w.srv.URL, a.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	// The other tab.
	if _, err := w.store.SaveSentenceLabel(w.ctx, a.ID, a.UserID, 0, domain.SentenceLabel{SentenceID: s1, Label: "faithful"}); err != nil {
		t.Fatal(err)
	}
	keys(t, ctx, "u")
	waitJS(t, ctx, "conflict shown", `!document.getElementById("conflict").hidden && !!document.querySelector("[data-testid=reload]")`)
	waitJS(t, ctx, "form back to the saved label", fmt.Sprintf(`document.querySelector("#form-%d input[value=faithful]").checked`, s1))
	if r := boxOf(t, ctx, "#conflict"); !r.inView() {
		t.Fatalf("the conflict message is out of the window: %+v", r)
	}
	if r := boxOf(t, ctx, `[data-testid="pick-1"]`); !r.inView() {
		t.Fatalf("the sentence is out of the window: %+v", r)
	}
	keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	if got := must(w.store.AssignmentByID(w.ctx, a.ID))(t); got.Status == domain.StatusSubmitted {
		t.Fatal("submitted after a conflict")
	}
	if l := mustLabel(t, w, a.ID, s1); l.Label != "faithful" {
		t.Fatalf("the other tab's label was overwritten: %+v", l)
	}
}
