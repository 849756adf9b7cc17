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
	if !p.testID("login-error") || !strings.Contains(p.body, "busy") || !strings.Contains(p.body, `value="ana"`) {
		t.Fatalf("busy answer is not the login form with the message and the name kept:\n%s", p.body)
	}
	if p := f.browser().login("ana", testPassword); p.status != http.StatusSeeOther {
		t.Fatalf("slot free again: status %d", p.status)
	}
}
