package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// newBrowser starts a headless Chromium for a test. Without Chromium the
// test is skipped on a developer machine and fails in CI (CI=true), where
// .ci/run installs it.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI: Chromium is required for browser tests (apt-get install chromium)")
		}
		t.Skip("no Chromium on this machine")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1280, 800),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// screenshot saves a PNG of the page when ANNOTATE_SCREENSHOTS names a
// directory; the README's pictures are made this way.
func screenshot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("ANNOTATE_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBrowserLogin(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.user("ana", false)
	f.project("alpha", nil)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(f.srv.URL+"/projects"),
		chromedp.WaitVisible(css(`[data-testid="login-submit"]`)),
		chromedp.SendKeys(css(`#username`), "ana"),
		chromedp.SendKeys(css(`#password`), "wrong password!"),
		chromedp.Submit(css(`#password`)),
		chromedp.WaitVisible(css(`[data-testid="login-error"]`)),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`[data-testid="whoami"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	who := text(t, ctx, `[data-testid="whoami"]`)
	body := text(t, ctx, `main`)
	if who != "ana" || !strings.Contains(body, "not a member of any project") {
		t.Fatalf("after login: who=%q body=%q", who, body)
	}
}

func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// text returns the visible text of the first element matching sel.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(css(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}
