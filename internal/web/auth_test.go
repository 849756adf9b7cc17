package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestLogin(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)

	t.Run("anonymous is sent to login", func(t *testing.T) {
		p := f.browser().get("/projects")
		if p.status != http.StatusSeeOther || !strings.HasPrefix(p.header.Get("Location"), "/login?next=") {
			t.Fatalf("status %d, Location %q", p.status, p.header.Get("Location"))
		}
	})
	t.Run("login page renders", func(t *testing.T) {
		p := f.browser().get("/login")
		if p.status != http.StatusOK || !p.testID("login-submit") {
			t.Fatalf("status %d", p.status)
		}
	})
	t.Run("wrong password", func(t *testing.T) {
		p := f.browser().login("ana", "not the password")
		if p.status != http.StatusUnauthorized || !p.testID("login-error") {
			t.Fatalf("status %d", p.status)
		}
	})
	t.Run("right password, then logout", func(t *testing.T) {
		b := f.browser()
		p := b.login("ana", testPassword)
		if p.status != http.StatusSeeOther || p.header.Get("Location") != "/projects" {
			t.Fatalf("login: status %d, Location %q", p.status, p.header.Get("Location"))
		}
		if p := b.get("/projects"); p.status != http.StatusOK || !p.testID("whoami") {
			t.Fatalf("projects after login: status %d", p.status)
		}
		tok := b.csrf("/projects")
		if p := b.post("/logout", url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
			t.Fatalf("logout: status %d", p.status)
		}
		if p := b.get("/projects"); p.status != http.StatusSeeOther {
			t.Fatalf("projects after logout: status %d, want redirect to login", p.status)
		}
	})
	t.Run("open redirect refused", func(t *testing.T) {
		b := f.browser()
		tok := b.csrf("/login")
		p := b.post("/login", url.Values{"_csrf": {tok}, "username": {"ana"}, "password": {testPassword}, "next": {"//evil.example/"}})
		if p.header.Get("Location") != "/projects" {
			t.Fatalf("Location = %q", p.header.Get("Location"))
		}
	})
}

func TestSessionCookieFlags(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	b := f.browser()
	p := b.login("ana", testPassword)
	var found bool
	for _, c := range p.header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "annotate=") {
			found = true
			for _, flag := range []string{"HttpOnly", "SameSite=Lax", "Path=/"} {
				if !strings.Contains(c, flag) {
					t.Errorf("session cookie lacks %s: %s", flag, c)
				}
			}
		}
	}
	if !found {
		t.Fatal("no session cookie set at login")
	}
}

func TestLoginThrottling(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	b := f.browser()
	for i := 0; i < 5; i++ {
		if p := b.login("ana", "wrong password "); p.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: status %d", i+1, p.status)
		}
	}
	// The sixth attempt is refused even with the right password.
	p := b.login("ana", testPassword)
	if p.status != http.StatusTooManyRequests || !strings.Contains(p.body, "Too many failed attempts") {
		t.Fatalf("after 5 failures: status %d", p.status)
	}
	// Another account from the same address is not locked.
	f.user("ben", false)
	if p := f.browser().login("ben", testPassword); p.status != http.StatusSeeOther {
		t.Fatalf("other account: status %d", p.status)
	}
}

func TestCSRF(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	t.Run("login without token", func(t *testing.T) {
		b := f.browser()
		b.get("/login") // gets the CSRF cookie but sends no token
		p := b.post("/login", url.Values{"username": {"ana"}, "password": {testPassword}})
		if p.status != http.StatusForbidden {
			t.Fatalf("status %d, want 403", p.status)
		}
	})
	t.Run("logout with a wrong token", func(t *testing.T) {
		b := f.browser()
		b.login("ana", testPassword)
		p := b.post("/logout", url.Values{"_csrf": {"forged"}})
		if p.status != http.StatusForbidden {
			t.Fatalf("status %d, want 403", p.status)
		}
		if p := b.get("/projects"); p.status != http.StatusOK {
			t.Fatalf("still logged in? status %d", p.status)
		}
	})
	t.Run("token in header is accepted", func(t *testing.T) {
		b := f.browser()
		b.login("ana", testPassword)
		tok := b.csrf("/projects")
		req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/logout", nil)
		req.Header.Set("X-CSRF-Token", tok)
		req.Header.Set("HX-Request", "true")
		if p := b.do(req); p.status != http.StatusNoContent || p.header.Get("HX-Redirect") != "/login" {
			t.Fatalf("status %d, HX-Redirect %q", p.status, p.header.Get("HX-Redirect"))
		}
	})
}

func TestDisabledAccountLosesSession(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	b := f.browser()
	b.login("ana", testPassword)
	if err := f.store.SetDisabled(f.ctx, "ana", true); err != nil {
		t.Fatal(err)
	}
	if p := b.get("/projects"); p.status != http.StatusSeeOther {
		t.Fatalf("disabled account still served: status %d", p.status)
	}
}
