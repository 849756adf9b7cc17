package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/tasks"
	"annotate/internal/web"
)

// serverWith starts a server with cfg over a fresh database.
func serverWith(t *testing.T, cfg web.Config) (*fixture, *web.Server) {
	t.Helper()
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := web.New(ctx, store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return &fixture{t: t, store: store, srv: srv, ctx: ctx}, s
}

// failLogins sends n wrong logins for made-up names with the given
// forwarded address and returns the last status.
func failLogins(b *browser, n int, forwarded string) int {
	tok := b.csrf("/login")
	st := 0
	for i := 0; i < n; i++ {
		form := url.Values{"_csrf": {tok}, "username": {"nobody" + strconv.Itoa(i) + forwarded}, "password": {"wrong password"}}
		req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+"/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if forwarded != "" {
			req.Header.Set("X-Forwarded-For", forwarded+"."+strconv.Itoa(i%250+1))
			req.Header.Set("X-Real-IP", forwarded+"."+strconv.Itoa(i%250+1))
		}
		st = b.do(req).status
	}
	return st
}

// Finding 3: X-Forwarded-For and X-Real-IP were believed from anyone, so
// each guess could claim a new address.
func TestThrottleUsesSocketAddress(t *testing.T) {
	t.Run("forwarded headers ignored without --trusted-proxy", func(t *testing.T) {
		f, _ := serverWith(t, web.Config{})
		if st := failLogins(f.browser(), 31, "10.9.8"); st != http.StatusTooManyRequests {
			t.Fatalf("31st failure from one socket with spoofed headers: %d, want 429", st)
		}
	})
	t.Run("forwarded header believed from a trusted proxy", func(t *testing.T) {
		trusted, err := web.ParseTrustedProxies("127.0.0.1/32, ::1")
		if err != nil {
			t.Fatal(err)
		}
		f, _ := serverWith(t, web.Config{TrustedProxies: trusted})
		if st := failLogins(f.browser(), 31, "10.9.8"); st != http.StatusUnauthorized {
			t.Fatalf("31 failures from 31 forwarded addresses: %d, want 401", st)
		}
	})
	t.Run("bad ranges are refused", func(t *testing.T) {
		if _, err := web.ParseTrustedProxies("10.0.0.0/33"); err == nil {
			t.Fatal("10.0.0.0/33 accepted")
		}
	})
}

// Issue 12: password checks are bounded; when none is free in time the
// answer is 503 with Retry-After rather than a long wait, on the login form
// with the name kept, so that a person retries with one click.
func TestLoginBusy(t *testing.T) {
	f, s := serverWith(t, web.Config{MaxConcurrentLogins: 1, LoginWait: 1})
	f.user("ana", false)
	release := s.HoldLoginSlotsForTest(1)
	p := f.browser().login("ana", testPassword)
	release()
	if p.status != http.StatusServiceUnavailable || p.header.Get("Retry-After") == "" {
		t.Fatalf("all slots taken: status %d, Retry-After %q", p.status, p.header.Get("Retry-After"))
	}
	p.textIn(t, tid("login-error"), "busy")
	p.mustFind(t, `form input[name="username"][value="ana"]`)
	if p := f.browser().login("ana", testPassword); p.status != http.StatusSeeOther {
		t.Fatalf("slot free again: status %d", p.status)
	}
}

// loginFrom posts a login for name from a forwarded address (the server
// trusts the loopback proxy) and returns the status.
func loginFrom(b *browser, name, password, address string) int {
	form := url.Values{"_csrf": {b.csrf("/login")}, "username": {name}, "password": {password}}
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", address)
	return b.do(req).status
}

// TestStrangerCannotLockTheOwnerOut: five wrong passwords for a name from
// one address slow that address only; the owner, from another address,
// gets in with the right password. Guessing spread over many addresses
// stops at 50 failures, after which the owner still gets in from an
// address they used before, and a new address does not.
func TestStrangerCannotLockTheOwnerOut(t *testing.T) {
	trusted, err := web.ParseTrustedProxies("127.0.0.1/32, ::1")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := serverWith(t, web.Config{TrustedProxies: trusted})
	f.user("ana", false)
	attacker, owner := f.browser(), f.browser()
	for range 5 {
		if st := loginFrom(attacker, "ana", "a wrong guess!", "203.0.113.7"); st != http.StatusUnauthorized {
			t.Fatalf("a wrong guess: %d", st)
		}
	}
	if st := loginFrom(attacker, "ana", testPassword, "203.0.113.7"); st != http.StatusTooManyRequests {
		t.Errorf("the attacker's address after five failures: %d, want 429", st)
	}
	if st := loginFrom(owner, "ana", testPassword, "198.51.100.20"); st != http.StatusSeeOther {
		t.Fatalf("the owner from another address: %d, want 303", st)
	}
	// Guessing from many addresses, four each.
	for i := range 50 {
		loginFrom(f.browser(), "ana", "a wrong guess!", "192.0.2."+strconv.Itoa(i/4+1))
	}
	if st := loginFrom(f.browser(), "ana", testPassword, "198.51.100.99"); st != http.StatusTooManyRequests {
		t.Errorf("a new address after 50 failures for the account: %d, want 429", st)
	}
	if st := loginFrom(f.browser(), "ana", testPassword, "198.51.100.20"); st != http.StatusSeeOther {
		t.Errorf("the owner's known address after 50 failures: %d, want 303", st)
	}
}

// TestCurrentPasswordIsThrottled: the current password asked for a
// password change is a password check like a login: after five wrong
// ones, the right one waits too.
func TestCurrentPasswordIsThrottled(t *testing.T) {
	f, _ := serverWith(t, web.Config{})
	f.user("ana", false)
	b := f.browser()
	b.login("ana", testPassword)
	change := func(current string) int {
		return b.post("/account/password", url.Values{"_csrf": {b.csrf("/account")}, "current": {current},
			"new": {"a brand new password"}, "confirm": {"a brand new password"}}).status
	}
	for i := range 5 {
		if st := change("not my password " + strconv.Itoa(i)); st != http.StatusUnprocessableEntity {
			t.Fatalf("wrong current password %d: %d", i, st)
		}
	}
	if st := change(testPassword); st != http.StatusTooManyRequests {
		t.Fatalf("the right password after five wrong ones: %d, want 429", st)
	}
}
