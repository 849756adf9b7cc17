package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browsers is the package's one headless Chromium, started by the first
// browser test and stopped by TestMain: each test gets a tab in a browser
// context of its own (cookies, storage and cache apart), so tests run in
// parallel without starting a browser each (a start cost as much as many
// of the tests themselves).
var browsers struct {
	once  sync.Once
	ctx   context.Context // the browser's; tabs are made from it
	stop  func()
	err   error
	found string // Chromium's path; empty when none is installed
}

// chromiumPath is the installed Chromium, or "".
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startBrowser starts the shared Chromium with its profile in dir.
func startBrowser(path, dir string) (context.Context, func(), error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1280, 800),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	stop := func() { cancelB(); cancelA() }
	// The browser lives as long as the context of its first run: bctx.
	if err := chromedp.Do(bctx); err != nil {
		stop()
		return nil, nil, err
	}
	return bctx, stop, nil
}

// stopBrowser stops the shared Chromium, if a test started it, and removes
// its profile.
func stopBrowser() {
	if browsers.stop != nil {
		browsers.stop()
	}
}

// newBrowser opens a tab for a test in a new browser context of the
// shared headless Chromium, closed when the test ends. Without Chromium
// the test is skipped on a developer machine and fails in CI (CI=true),
// where .ci/run installs it.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	browsers.once.Do(func() {
		browsers.found = chromiumPath()
		if browsers.found == "" {
			return
		}
		dir, err := os.MkdirTemp("", "annotate-chromium-")
		if err != nil {
			browsers.err = err
			return
		}
		ctx, stop, err := startBrowser(browsers.found, dir)
		if err != nil {
			os.RemoveAll(dir)
			browsers.err = err
			return
		}
		browsers.ctx = ctx
		browsers.stop = func() { stop(); os.RemoveAll(dir) }
	})
	if browsers.found == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI: Chromium is required for browser tests (apt-get install chromium)")
		}
		t.Skip("no Chromium on this machine")
	}
	if browsers.err != nil {
		t.Fatalf("start Chromium: %v", browsers.err)
	}
	ctx, cancelC := chromedp.NewContext(browsers.ctx, chromedp.WithNewBrowserContext())
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelT(); cancelC() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
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
