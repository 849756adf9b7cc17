package web_test

import (
	"net/http"
	"net/url"
	"testing"
)

// Finding 2: a tab (or other character browsers drop) in ?next= turned the
// post-login redirect into one to another site.
func TestLoginRedirectStaysOnSite(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	logged := f.browser()
	logged.login("ana", testPassword)
	cases := []struct{ next, want string }{
		{"/p/alpha?x=1", "/p/alpha?x=1"},
		{"/\t/127.0.0.1:18095/x", "/projects"},
		{"/\n/evil.example/", "/projects"},
		{"//evil.example/", "/projects"},
		{"/\\evil.example/", "/projects"},
		{"https://evil.example/", "/projects"},
		{"/%09/evil.example", "/%09/evil.example"},
		{"javascript:alert(1)", "/projects"},
		{"", "/projects"},
	}
	for _, c := range cases {
		t.Run(c.next, func(t *testing.T) {
			// Already logged in: GET /login redirects at once.
			if p := logged.get("/login?next=" + url.QueryEscape(c.next)); p.status != http.StatusSeeOther || p.header.Get("Location") != c.want {
				t.Errorf("GET: status %d, Location %q, want %q", p.status, p.header.Get("Location"), c.want)
			}
			b := f.browser()
			tok := b.csrf("/login")
			p := b.post("/login", url.Values{"_csrf": {tok}, "username": {"ana"}, "password": {testPassword}, "next": {c.next}})
			if p.header.Get("Location") != c.want {
				t.Errorf("POST: Location %q, want %q", p.header.Get("Location"), c.want)
			}
		})
	}
}
