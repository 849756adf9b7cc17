package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/authn"
	"annotate/internal/web"
)

// TestRecoveryRevokesTokens: an administrator's password reset (link or
// password), disabling (then enabling) and "sign out everywhere" revoke
// the account's API tokens; the user's own password change revokes them
// when asked to and only then.
func TestRecoveryRevokesTokens(t *testing.T) {
	f := newFixture(t)
	f.user("root", true)
	ann := f.user("ann", false)
	admin := f.browser()
	admin.login("root", testPassword)
	tok := admin.csrf("/admin/users")
	answers := func(secret string) int {
		return (&apiClient{t: t, base: f.srv.URL, token: secret, noCheck: true}).get("/api/v1/projects").status
	}
	for _, step := range []struct{ action, value string }{
		{"reset", "link"}, {"reset", "password"}, {"disable", ""}, {"signout", ""},
	} {
		secret := newToken(t, f, ann, authn.TokenSpec{})
		if got := answers(secret); got != http.StatusOK {
			t.Fatalf("%s: the token answers %d before", step.action, got)
		}
		p := admin.post(fmt.Sprintf("/admin/users/%d/%s", ann.ID, step.action), url.Values{"_csrf": {tok}, "value": {step.value}})
		if p.status != http.StatusOK && p.status != http.StatusSeeOther {
			t.Fatalf("%s: %d", step.action, p.status)
		}
		if step.action == "disable" {
			if p := admin.post(fmt.Sprintf("/admin/users/%d/enable", ann.ID), url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
				t.Fatalf("enable: %d", p.status)
			}
		}
		if got := answers(secret); got != http.StatusUnauthorized {
			t.Errorf("after %s %s the old token answers %d, want 401", step.action, step.value, got)
		}
	}
	if p := admin.get("/admin/users"); !p.testID("recovery-note") {
		t.Error("the users page does not say that recovery revokes tokens")
	}

	// The user's own change: tokens stay unless the box is ticked.
	if err := f.store.SetPassword(f.ctx, "ann", testPassword); err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	b.login("ann", testPassword)
	kept := newToken(t, f, ann, authn.TokenSpec{})
	change := func(from, to string, revoke bool) {
		t.Helper()
		form := url.Values{"_csrf": {b.csrf("/account")}, "current": {from}, "new": {to}, "confirm": {to}}
		if revoke {
			form.Set("revoke_tokens", "true")
		}
		if p := b.post("/account/password", form); p.status != http.StatusSeeOther {
			t.Fatalf("password change: %d", p.status)
		}
	}
	change(testPassword, "a second long password", false)
	if got := answers(kept); got != http.StatusOK {
		t.Errorf("a password change without the box revoked the token: %d", got)
	}
	change("a second long password", "a third long password", true)
	if got := answers(kept); got != http.StatusUnauthorized {
		t.Errorf("a password change with the box kept the token: %d", got)
	}
}

// TestResetLinkIgnoresTheRequestHost: the one-time link is made from the
// configured public URL, whatever Host and X-Forwarded-Proto the request
// carries; with none configured it is a path, and the page says so.
func TestResetLinkIgnoresTheRequestHost(t *testing.T) {
	for _, public := range []string{"", "https://annotate.example.org/"} {
		f, _ := serverWith(t, web.Config{PublicURL: public})
		f.user("root", true)
		ann := f.user("ann", false)
		admin := f.browser()
		admin.login("root", testPassword)
		form := url.Values{"_csrf": {admin.csrf("/admin/users")}, "value": {"link"}}
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/admin/users/%d/reset", f.srv.URL, ann.ID), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Host = "evil.example"
		req.Header.Set("X-Forwarded-Proto", "gopher")
		req.Header.Set("X-Forwarded-Host", "evil.example")
		// The session cookie is added by hand: the cookie jar would look
		// it up under the forged host.
		base, _ := url.Parse(f.srv.URL)
		for _, ck := range admin.client.Jar.Cookies(base) {
			req.AddCookie(ck)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		p := page{status: res.StatusCode, body: string(body)}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(p.body))
		if err != nil {
			t.Fatal(err)
		}
		link := doc.Find(`[data-testid="issued-link"]`).Text()
		switch {
		case p.status != http.StatusOK || link == "":
			t.Fatalf("public URL %q: %d, no link\n%.600s", public, p.status, p.body)
		case strings.Contains(link, "evil") || strings.Contains(link, "gopher"):
			t.Errorf("public URL %q: the link follows the request: %s", public, link)
		case public == "" && (!strings.HasPrefix(link, "/account/reset/") || doc.Find(`[data-testid="issued-link-relative"]`).Length() != 1):
			t.Errorf("no public URL: link %q, want a path with a note", link)
		case public != "" && !strings.HasPrefix(link, "https://annotate.example.org/account/reset/"):
			t.Errorf("public URL %q: link %q", public, link)
		}
	}
	if _, err := web.ParsePublicURL("https://annotate.example.org/sub?x=1"); err == nil {
		t.Error("a public URL with a path and query was accepted")
	}
}
