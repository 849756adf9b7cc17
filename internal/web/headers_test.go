package web_test

import (
	"net/http"
	"strings"
	"testing"

	"annotate/internal/web"
)

// Finding 9: authenticated pages could be cached, there was no HSTS or
// __Host- cookie under --secure-cookies, and /static/ listed its files.
func TestSecurityHeaders(t *testing.T) {
	t.Run("pages are not cached", func(t *testing.T) {
		f := newFixture(t)
		f.user("ana", false)
		f.project("alpha", nil)
		b := f.browser()
		b.login("ana", testPassword)
		for _, path := range []string{"/projects", "/login"} {
			if p := b.get(path); p.header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s: Cache-Control %q, want no-store", path, p.header.Get("Cache-Control"))
			}
		}
		if p := b.get("/static/app.css"); p.status != http.StatusOK || !strings.Contains(p.header.Get("Cache-Control"), "public") {
			t.Errorf("static file: %d, Cache-Control %q", p.status, p.header.Get("Cache-Control"))
		}
		if p := b.get("/projects"); p.header.Get("Strict-Transport-Security") != "" {
			t.Error("HSTS sent over plain HTTP")
		}
	})
	t.Run("no directory listing", func(t *testing.T) {
		f := newFixture(t)
		for _, path := range []string{"/static/", "/static", "/static/./"} {
			if p := f.browser().get(path); p.status == http.StatusOK || strings.Contains(p.body, "app.css") {
				t.Errorf("%s: status %d, body lists files: %v", path, p.status, strings.Contains(p.body, "app.css"))
			}
		}
	})
	t.Run("secure cookies", func(t *testing.T) {
		f, _ := serverWith(t, web.Config{SecureCookies: true})
		f.user("ana", false)
		// The test server speaks plain HTTP; read the headers directly.
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/login", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Strict-Transport-Security"); !strings.HasPrefix(got, "max-age=") {
			t.Errorf("HSTS %q", got)
		}
		var cookie *http.Cookie
		for _, c := range resp.Cookies() {
			if strings.HasPrefix(c.Name, "__Host-") {
				cookie = c
			}
		}
		if cookie == nil || !cookie.Secure || cookie.Path != "/" || cookie.Domain != "" || !cookie.HttpOnly {
			t.Fatalf("session cookie: %+v (all: %v)", cookie, resp.Header.Values("Set-Cookie"))
		}
	})
}
