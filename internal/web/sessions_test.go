package web_test

import (
	"database/sql"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"testing"
)

// clone returns a second client holding a copy of b's cookies, as an
// attacker who saved them would.
func (b *browser) clone() *browser {
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(b.f.srv.URL)
	jar.SetCookies(u, b.client.Jar.Cookies(u))
	return &browser{f: b.f, client: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Finding 1: sessions could not be revoked.
func TestSessionsAreRevocable(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	sid := w.sentences[a.SummaryID][0]
	save := func(b *browser) int {
		tok := b.csrf(fmt.Sprintf("/a/%d", a.ID))
		cur := must(w.store.AssignmentByID(w.ctx, a.ID))(t)
		return b.post(fmt.Sprintf("/a/%d/s/%d", a.ID, sid), url.Values{"_csrf": {tok}, "label": {"faithful"}, "version": {strconv.Itoa(cur.Version)}}).status
	}
	login := func() *browser {
		b := w.browser()
		if p := b.login("ann", testPassword); p.status != http.StatusSeeOther {
			t.Fatalf("login: %d", p.status)
		}
		return b
	}
	t.Run("logout ends the saved cookie too", func(t *testing.T) {
		b := login()
		saved := b.clone()
		if p := saved.get("/p/alpha"); p.status != http.StatusOK {
			t.Fatalf("copy before logout: %d", p.status)
		}
		tok := b.csrf("/projects")
		if p := b.post("/logout", url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
			t.Fatalf("logout: %d", p.status)
		}
		if p := saved.get("/p/alpha"); p.status != http.StatusSeeOther {
			t.Fatalf("saved cookie after logout: status %d, want 303 to login", p.status)
		}
	})
	t.Run("a new password ends old sessions", func(t *testing.T) {
		b := login()
		if st := save(b); st != http.StatusOK {
			t.Fatalf("save before: %d", st)
		}
		if err := w.store.SetPassword(w.ctx, "ann", "another long password"); err != nil {
			t.Fatal(err)
		}
		if p := b.get(fmt.Sprintf("/a/%d", a.ID)); p.status != http.StatusSeeOther {
			t.Fatalf("old session after password change: %d", p.status)
		}
		if err := w.store.SetPassword(w.ctx, "ann", testPassword); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("disable then enable does not bring sessions back", func(t *testing.T) {
		b := login()
		if err := w.store.SetDisabled(w.ctx, "ann", true); err != nil {
			t.Fatal(err)
		}
		if err := w.store.SetDisabled(w.ctx, "ann", false); err != nil {
			t.Fatal(err)
		}
		if p := b.get("/projects"); p.status != http.StatusSeeOther {
			t.Fatalf("session after disable+enable: %d", p.status)
		}
	})
	t.Run("the database holds no token", func(t *testing.T) {
		b := login()
		u, _ := url.Parse(w.srv.URL)
		for _, c := range b.client.Jar.Cookies(u) {
			var n int
			if err := rawDB(t, w.fixture).QueryRow(`SELECT count(*) FROM sessions WHERE token_hash = ? OR csrf = ? OR data LIKE '%'||?||'%'`, []byte(c.Value), c.Value, c.Value).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatalf("cookie %s stored as-is", c.Name)
			}
		}
	})
}

// Finding 8: the CSRF token was a double-submit cookie, not bound to the
// session, kept across login and accepted from the query string.
func TestCSRFBoundToSession(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	t.Run("rotated at login", func(t *testing.T) {
		b := f.browser()
		before := b.csrf("/login")
		b.post("/login", url.Values{"_csrf": {before}, "username": {"ana"}, "password": {testPassword}})
		after := b.csrf("/projects")
		if before == after {
			t.Fatal("CSRF token unchanged by login")
		}
		if p := b.post("/logout", url.Values{"_csrf": {before}}); p.status != http.StatusForbidden {
			t.Fatalf("pre-login token after login: %d, want 403", p.status)
		}
	})
	t.Run("never from the query string", func(t *testing.T) {
		b := f.browser()
		b.login("ana", testPassword)
		tok := b.csrf("/projects")
		req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/logout?_csrf="+url.QueryEscape(tok), nil)
		if p := b.do(req); p.status != http.StatusForbidden {
			t.Fatalf("token in query: %d, want 403", p.status)
		}
	})
	t.Run("another session's token is refused", func(t *testing.T) {
		a, b := f.browser(), f.browser()
		a.login("ana", testPassword)
		b.login("ana", testPassword)
		if p := b.post("/logout", url.Values{"_csrf": {a.csrf("/projects")}}); p.status != http.StatusForbidden {
			t.Fatalf("other session's token: %d, want 403", p.status)
		}
	})
	t.Run("a planted cookie with a chosen token is refused", func(t *testing.T) {
		b := f.browser()
		req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/login", nil)
		req.Header.Set("Cookie", "annotate=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; _csrf=planted")
		req.Header.Set("X-CSRF-Token", "planted")
		if p := b.do(req); p.status != http.StatusForbidden {
			t.Fatalf("planted cookie: %d, want 403", p.status)
		}
	})
}

// rawDB opens the fixture's database file directly, to look at what is
// stored.
func rawDB(t *testing.T, f *fixture) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+f.store.Path()+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// writeDB opens the fixture's database file directly for a change the
// pages cannot make in one step.
func writeDB(t *testing.T, f *fixture) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+f.store.Path()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
