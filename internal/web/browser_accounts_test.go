package web_test

import (
	"context"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
)

// loginIn logs a browser context in through the login form.
func loginIn(t *testing.T, ctx context.Context, base, user, password string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/login"),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), user),
		chromedp.SendKeys(css(`#password`), password+"\n"),
		chromedp.WaitVisible(css(`[data-testid="whoami"]`)),
	)
	if err != nil {
		t.Fatalf("log in %s: %v", user, err)
	}
}

// TestBrowserPasswordChangeEndsOtherSessions logs in twice (two browser
// contexts, no shared cookies), changes the password in one, and finds
// the other logged out.
func TestBrowserPasswordChangeEndsOtherSessions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.user("ana", false)
	first := newBrowser(t)
	second, cancel := chromedp.NewContext(first, chromedp.WithNewBrowserContext())
	defer cancel()
	loginIn(t, first, f.srv.URL, "ana", testPassword)
	loginIn(t, second, f.srv.URL, "ana", testPassword)

	err := chromedp.Do(first,
		chromedp.Click(css(`[data-testid="whoami"]`)),
		chromedp.WaitVisible(css(`[data-testid="password-form"]`)),
		chromedp.SendKeys(css(`#current`), testPassword),
		chromedp.SendKeys(css(`#new`), "a brand new password"),
		chromedp.SendKeys(css(`#confirm`), "a brand new password"),
		chromedp.Click(css(`[data-testid="password-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="flash"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if msg := text(t, first, `[data-testid="flash"]`); !strings.Contains(msg, "Password changed") {
		t.Fatalf("flash after the change: %q", msg)
	}
	// The second context reloads and is sent to the login page.
	if err := chromedp.Do(second, chromedp.Navigate(f.srv.URL+"/projects"), chromedp.WaitVisible(css(`[data-testid="login-submit"]`))); err != nil {
		t.Fatalf("the old session still works: %v", err)
	}
	// The first stays logged in.
	if err := chromedp.Do(first, chromedp.Navigate(f.srv.URL+"/projects"), chromedp.WaitVisible(css(`[data-testid="whoami"]`))); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserAdminAddsMember: an administrator adds an annotator from the
// project's page, and the annotator then sees the project.
func TestBrowserAdminAddsMember(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.user("root", true)
	f.user("ana", false)
	f.project("alpha", nil)
	admin := newBrowser(t)
	ann, cancel := chromedp.NewContext(admin, chromedp.WithNewBrowserContext())
	defer cancel()
	loginIn(t, ann, f.srv.URL, "ana", testPassword)
	if err := chromedp.Do(ann, chromedp.WaitVisible(css(`[data-testid="no-projects"]`))); err != nil {
		t.Fatal(err)
	}
	loginIn(t, admin, f.srv.URL, "root", testPassword)
	err := chromedp.Do(admin,
		chromedp.Navigate(f.srv.URL+"/p/alpha"),
		chromedp.WaitVisible(css(`[data-testid="add-member"]`)),
		chromedp.SendKeys(css(`#member-username`), "ana"),
		chromedp.SetValue(css(`#member-role`), domain.RoleAnnotator),
		chromedp.Click(css(`[data-testid="add-member-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="member-ana"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, admin, "project-members")
	if err := chromedp.Do(ann, chromedp.Navigate(f.srv.URL+"/projects"), chromedp.WaitVisible(css(`[data-testid="project-alpha"]`))); err != nil {
		t.Fatalf("the annotator does not see the project: %v", err)
	}
}
