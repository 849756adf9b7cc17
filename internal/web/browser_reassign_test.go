package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"annotate/internal/domain"
)

// TestBrowserReassignFromTheRoundPage: in Chromium, a lead chooses an
// annotator in the round page's one list and presses an assignment's
// "reassign" button with the keyboard; the assignment moves to that
// annotator.
func TestBrowserReassignFromTheRoundPage(t *testing.T) {
	t.Parallel()
	w := newWorkFixture(t)
	cat := w.user("cat", false)
	if err := w.store.SetMember(w.ctx, w.project.ID, cat.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	r := must(w.store.RoundByName(w.ctx, w.project.ID, "r1"))(t)
	move := w.assign["bob"][1]
	ctx := newBrowser(t)
	loginIn(t, ctx, w.srv.URL, "lea", testPassword)
	button := fmt.Sprintf(`button[form="reassign"][formaction$="/assignments/%d/reassign"]`, move.ID)
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/p/alpha/rounds/%d", w.srv.URL, r.ID)),
		chromedp.WaitVisible(css(`[data-testid="reassign-form"]`)),
		chromedp.SetValue(css(`#reassign-to`), fmt.Sprint(cat.ID)),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "round-reassign")
	err = chromedp.Do(ctx,
		chromedp.Focus(css(button)),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(css(`[data-testid="flash"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	flash, err := chromedp.Run(ctx, chromedp.Text(css(`[data-testid="flash"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(flash, "moved") {
		t.Fatalf("flash after the reassignment: %q", flash)
	}
	q := must(w.store.Queue(w.ctx, w.project.ID, cat.ID))(t)
	if len(q) != 1 || q[0].SummaryID != move.SummaryID {
		t.Fatalf("cat's queue after the reassignment: %+v, want bob's summary %d", q, move.SummaryID)
	}
}
