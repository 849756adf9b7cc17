package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// overflowJS lists the elements that stick out past the window's right
// edge without a scrolling box of their own to hold them: what makes a
// page scroll sideways. An element inside a box that scrolls sideways
// (overflow-x auto or scroll) counts only if that box itself sticks out.
const overflowJS = `(() => {
  const w = window.innerWidth + 0.5;
  const scrolls = e => { const o = getComputedStyle(e).overflowX; return o === "auto" || o === "scroll" || o === "hidden"; };
  const out = [];
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.right <= w) continue;
    let held = false;
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (scrolls(p) && p.getBoundingClientRect().right <= w) { held = true; break; }
    }
    if (held) continue;
    out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "") + " right=" + Math.round(r.right));
    if (out.length >= 8) break;
  }
  const boxes = [...document.querySelectorAll(".table-wrap")].filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => "table box " + (e.dataset.testid || e.querySelector("[data-testid]")?.dataset.testid || "") + " scrolls " + e.scrollWidth + ">" + e.clientWidth);
  return JSON.stringify({scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth, out, boxes});
})()`

// labelOverlapJS lists the labelled cells of stacked tables whose label
// (each cell's ::before) is taller than the cell: a label of two lines
// running into the next line. Each label is measured as a hidden copy
// with the label's font and width.
const labelOverlapJS = `(() => {
  const out = [];
  for (const td of document.querySelectorAll(".table-wrap > table.stackable td[data-label], .table-wrap > table.stackable tbody th[data-label]")) {
    if (td.getClientRects().length === 0) continue;
    const b = getComputedStyle(td, "::before");
    if (b.content === "none" || b.display === "none") continue;
    const m = document.createElement("div");
    m.textContent = td.dataset.label;
    for (const p of ["font-family", "font-size", "font-weight", "line-height", "letter-spacing", "overflow-wrap"]) m.style.setProperty(p, b.getPropertyValue(p));
    m.style.width = b.width;
    m.style.position = "absolute";
    m.style.visibility = "hidden";
    document.body.appendChild(m);
    const need = m.getBoundingClientRect().height;
    m.remove();
    const s = getComputedStyle(td);
    const have = td.getBoundingClientRect().height - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
    if (need > have + 1) out.push(td.dataset.label + " " + Math.round(need) + ">" + Math.round(have) + " px");
    if (out.length >= 5) break;
  }
  return out.join(", ");
})()`

// TestBrowserPagesFitAPhone opens every page a lead, an annotator and an
// admin reach at a phone's width (390 × 844) and at 1280 × 800, and
// expects none to scroll sideways outside a table's own box; at the
// phone's width, data tables stack their rows into cards, so no table
// box scrolls either, and no card's label runs into the next line.
func TestBrowserPagesFitAPhone(t *testing.T) {
	t.Parallel()
	r := newReportFixture(t)
	f := r.fixture
	f.user("root", true)
	rounds, err := f.store.Rounds(f.ctx, r.project.ID)
	if err != nil || len(rounds) == 0 {
		t.Fatalf("rounds: %v", err)
	}
	sums, err := f.store.SummaryIDs(f.ctx, r.project.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	ann, err := f.store.UserByName(f.ctx, "ann_a")
	if err != nil {
		t.Fatal(err)
	}
	queue, err := f.store.Queue(f.ctx, r.project.ID, ann.ID)
	if err != nil || len(queue) == 0 {
		t.Fatalf("queue: %v", err)
	}
	rid := rounds[0].ID
	// Feedback opens when a lead closes the round.
	if err := f.store.CloseRound(f.ctx, rid); err != nil {
		t.Fatal(err)
	}
	pages := map[string][]string{
		"lea": {"/projects", "/p/rep", "/p/rep/import", "/p/rep/settings", "/p/rep/rounds",
			fmt.Sprintf("/p/rep/rounds/%d", rid), "/p/rep/adjudication", fmt.Sprintf("/p/rep/adjudication/s/%d", sums[0]),
			"/p/rep/assist", "/p/rep/export", "/p/rep/report", fmt.Sprintf("/p/rep/summaries/%d/split", sums[0]),
			fmt.Sprintf("/p/rep/history/%d", queue[0].ID), "/p/rep/studies",
			"/account", "/account/sessions", "/account/tokens"},
		"ann_a": {"/p/rep", fmt.Sprintf("/a/%d", queue[0].ID),
			fmt.Sprintf("/p/rep/rounds/%d/feedback", rid)},
		"root": {"/admin/users"},
	}
	ctx := newBrowser(t)
	for _, user := range []string{"lea", "ann_a", "root"} {
		loginIn(t, ctx, f.srv.URL, user, testPassword)
		for _, path := range pages[user] {
			for _, size := range [][2]int64{{390, 844}, {1280, 800}} {
				err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(f.srv.URL+path),
					chromedp.WaitReady(css(`body`)))
				if err != nil {
					t.Fatalf("%s as %s: %v", path, user, err)
				}
				if h1, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("h1") || {}).textContent || ""`)); strings.HasPrefix(h1, "Not ") {
					t.Fatalf("%s as %s: the page says %q", path, user, h1)
				}
				if code, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.body.innerText.match(/@[A-Z][A-Za-z]*\(|\{ [a-z][A-Za-z.]* \}/) || [""])[0]`)); code != "" {
					t.Errorf("%s as %s shows template code: %q", path, user, code)
				}
				got, err := chromedp.Run(ctx, chromedp.Evaluate[string](overflowJS))
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				var fit struct {
					Scroll, Inner int
					Out, Boxes    []string
				}
				if err := json.Unmarshal([]byte(got), &fit); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				if fit.Scroll > fit.Inner || len(fit.Out) > 0 {
					t.Errorf("%s as %s at %d px scrolls sideways (page %d px wide): %s", path, user, size[0], fit.Scroll, strings.Join(fit.Out, ", "))
				}
				if size[0] < 640 && len(fit.Boxes) > 0 {
					t.Errorf("%s as %s at %d px: a table's rows do not stack into cards: %s", path, user, size[0], strings.Join(fit.Boxes, ", "))
				}
				if size[0] < 640 {
					over, err := chromedp.Run(ctx, chromedp.Evaluate[string](labelOverlapJS))
					if err != nil {
						t.Fatalf("%s: %v", path, err)
					}
					if over != "" {
						t.Errorf("%s as %s at %d px: labels taller than their cards' lines: %s", path, user, size[0], over)
					}
				}
				fullScreenshot(t, ctx, fmt.Sprintf("width-%s%s-%d", user, strings.ReplaceAll(path, "/", "_"), size[0]))
			}
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(f.srv.URL+"/projects"),
			chromedp.Click(css(`button.link`)), chromedp.WaitVisible(css(`#username`))); err != nil {
			t.Fatalf("log out %s: %v", user, err)
		}
	}
}

// fullScreenshot saves a PNG of the whole page, beyond the window, when
// ANNOTATE_SCREENSHOTS names a directory.
func fullScreenshot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("ANNOTATE_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
