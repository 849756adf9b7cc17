package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestChangeOwnPassword(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	b, other := f.browser(), f.browser()
	b.login("ana", testPassword)
	other.login("ana", testPassword)
	tok := b.csrf("/account")
	change := func(cur, next, confirm string) page {
		return b.post("/account/password", url.Values{"_csrf": {tok}, "current": {cur}, "new": {next}, "confirm": {confirm}})
	}
	if p := change("wrong password!", "a new long password", "a new long password"); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "current password") {
		t.Fatalf("wrong current password: %d", p.status)
	}
	if p := change(testPassword, "a new long password", "something else"); p.status != http.StatusUnprocessableEntity {
		t.Fatalf("mismatched confirmation: %d", p.status)
	}
	if p := change(testPassword, "short", "short"); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "at least 10") {
		t.Fatalf("short password: %d", p.status)
	}
	if p := change(testPassword, "a new long password", "a new long password"); p.status != http.StatusSeeOther {
		t.Fatalf("change: %d %s", p.status, p.body)
	}
	if p := b.get("/account"); p.status != http.StatusOK || !p.testID("flash") {
		t.Fatalf("this browser after the change: %d", p.status)
	}
	if p := other.get("/projects"); p.status != http.StatusSeeOther {
		t.Fatalf("the other session after the change: %d, want 303 to login", p.status)
	}
	if p := f.browser().login("ana", "a new long password"); p.status != http.StatusSeeOther {
		t.Fatalf("login with the new password: %d", p.status)
	}
}

func TestOwnSessions(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	b, other, third := f.browser(), f.browser(), f.browser()
	b.login("ana", testPassword)
	other.login("ana", testPassword)
	third.login("ana", testPassword)
	p := b.get("/account/sessions")
	if p.status != http.StatusOK {
		t.Fatalf("sessions page: %d", p.status)
	}
	rows := p.mustFind(t, tid("sessions")+` tbody tr[data-testid^="session-"]`)
	if rows.Length() != 3 || !strings.Contains(textOf(rows), "127.0.0.1") || !strings.Contains(visible(rows), "Go-http-client") {
		t.Fatalf("sessions: %q", texts(rows))
	}
	var ids [][]string
	rows.Find(`button[data-testid^="end-session-"]`).Each(func(_ int, s *goquery.Selection) {
		ids = append(ids, []string{"", strings.TrimPrefix(s.AttrOr("data-testid", ""), "end-session-")})
	})
	if len(ids) != 2 {
		t.Fatalf("%d end buttons, want 2 (not for this browser)", len(ids))
	}
	tok := b.csrf("/account/sessions")
	if p := b.post("/account/sessions/"+ids[0][1]+"/end", url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
		t.Fatalf("end a session: %d", p.status)
	}
	ended := 0
	for _, x := range []*browser{other, third} {
		if x.get("/projects").status == http.StatusSeeOther {
			ended++
		}
	}
	if ended != 1 {
		t.Fatalf("%d sessions ended, want 1", ended)
	}
	if p := b.post("/account/sessions/end-others", url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
		t.Fatalf("end others: %d", p.status)
	}
	if other.get("/projects").status != http.StatusSeeOther || third.get("/projects").status != http.StatusSeeOther || b.get("/projects").status != http.StatusOK {
		t.Fatal("log out everywhere else ended the wrong sessions")
	}
}

func TestAdminUsers(t *testing.T) {
	f := newFixture(t)
	f.user("root", true)
	admin := f.browser()
	admin.login("root", testPassword)
	tok := admin.csrf("/admin/users")
	t.Run("add with a printed password", func(t *testing.T) {
		p := admin.post("/admin/users", url.Values{"_csrf": {tok}, "username": {"carl"}, "display": {"Carl C"}, "credential": {"password"}})
		m := regexp.MustCompile(`data-testid="issued-password">([^<]+)<`).FindStringSubmatch(p.body)
		if p.status != http.StatusOK || m == nil {
			t.Fatalf("add: %d", p.status)
		}
		if p := f.browser().login("carl", m[1]); p.status != http.StatusSeeOther {
			t.Fatalf("login with the printed password: %d", p.status)
		}
	})
	t.Run("add with a one-time link", func(t *testing.T) {
		p := admin.post("/admin/users", url.Values{"_csrf": {tok}, "username": {"dora"}, "credential": {"link"}})
		m := regexp.MustCompile(`data-testid="issued-link">(?:https?://[^/]+)?(/account/reset/[^<]+)<`).FindStringSubmatch(p.body)
		if p.status != http.StatusOK || m == nil {
			t.Fatalf("add: %d\n%s", p.status, p.body)
		}
		u := f.browser()
		rtok := u.csrf(m[1])
		if p := u.post(m[1], url.Values{"_csrf": {rtok}, "new": {"dora's own password"}, "confirm": {"dora's own password"}}); p.status != http.StatusOK || !p.testID("reset-done") {
			t.Fatalf("set password from the link: %d", p.status)
		}
		if p := u.get(m[1]); p.status != http.StatusNotFound {
			t.Fatalf("link used twice: %d, want 404", p.status)
		}
		if p := f.browser().login("dora", "dora's own password"); p.status != http.StatusSeeOther {
			t.Fatalf("login: %d", p.status)
		}
	})
	t.Run("bad and taken usernames", func(t *testing.T) {
		for _, name := range []string{"carl", "a b", "x"} {
			if p := admin.post("/admin/users", url.Values{"_csrf": {tok}, "username": {name}}); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "username") {
				t.Errorf("%q: %d", name, p.status)
			}
		}
	})
	carl := must(f.store.UserByName(f.ctx, "carl"))(t)
	act := func(action, value string) page {
		return admin.post(fmt.Sprintf("/admin/users/%d/%s", carl.ID, action), url.Values{"_csrf": {tok}, "value": {value}})
	}
	t.Run("disable ends sessions, enable does not bring them back", func(t *testing.T) {
		c := f.browser()
		pw := regexp.MustCompile(`data-testid="issued-password">([^<]+)<`).FindStringSubmatch(act("reset", "password").body)[1]
		c.login("carl", pw)
		if p := act("disable", ""); p.status != http.StatusSeeOther {
			t.Fatalf("disable: %d", p.status)
		}
		if c.get("/projects").status != http.StatusSeeOther || f.browser().login("carl", pw).status != http.StatusUnauthorized {
			t.Fatal("a disabled account still works")
		}
		act("enable", "")
		if c.get("/projects").status != http.StatusSeeOther {
			t.Fatal("enabling brought the old session back")
		}
		if f.browser().login("carl", pw).status != http.StatusSeeOther {
			t.Fatal("enabled account cannot log in")
		}
	})
	t.Run("make admin, sign out everywhere", func(t *testing.T) {
		act("admin", "true")
		if u := must(f.store.UserByName(f.ctx, "carl"))(t); !u.IsAdmin {
			t.Fatal("not made admin")
		}
		c := f.browser()
		pw := regexp.MustCompile(`data-testid="issued-password">([^<]+)<`).FindStringSubmatch(act("reset", "password").body)[1]
		c.login("carl", pw)
		if p := act("signout", ""); p.status != http.StatusSeeOther || c.get("/projects").status != http.StatusSeeOther {
			t.Fatal("sign out everywhere left a session")
		}
	})
	t.Run("no actions on oneself but signing out", func(t *testing.T) {
		root := must(f.store.UserByName(f.ctx, "root"))(t)
		if p := admin.post(fmt.Sprintf("/admin/users/%d/disable", root.ID), url.Values{"_csrf": {tok}}); p.status != http.StatusConflict {
			t.Fatalf("disable self: %d", p.status)
		}
	})
}

func TestProjectMembers(t *testing.T) {
	w := newWorkFixture(t)
	lead := w.browser()
	lead.login("lea", testPassword)
	tok := lead.csrf("/p/alpha")
	eve := w.browser()
	eve.login("eve", testPassword)
	if p := eve.get("/p/alpha"); p.status != http.StatusNotFound {
		t.Fatalf("eve before: %d", p.status)
	}
	if p := lead.post("/p/alpha/members", url.Values{"_csrf": {tok}, "username": {"eve"}, "role": {"annotator"}}); p.status != http.StatusSeeOther {
		t.Fatalf("add: %d %s", p.status, p.body)
	}
	if p := eve.get("/projects"); !p.testID("project-alpha") {
		t.Fatal("eve does not see the project")
	}
	if p := lead.post("/p/alpha/members", url.Values{"_csrf": {tok}, "username": {"eve"}, "role": {"lead"}}); p.status != http.StatusUnprocessableEntity {
		t.Fatalf("a lead made a lead: %d", p.status)
	}
	if p := lead.post("/p/alpha/members", url.Values{"_csrf": {tok}, "username": {"nobody"}, "role": {"annotator"}}); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "nobody") {
		t.Fatalf("unknown user: %d", p.status)
	}
	eveU := must(w.store.UserByName(w.ctx, "eve"))(t)
	w.user("lee", false)
	leeU := must(w.store.UserByName(w.ctx, "lee"))(t)
	w.store.SetMember(w.ctx, w.project.ID, leeU.ID, "lead")
	if p := lead.post(fmt.Sprintf("/p/alpha/members/%d/remove", leeU.ID), url.Values{"_csrf": {tok}}); p.status != http.StatusForbidden {
		t.Fatalf("a lead removed a lead: %d", p.status)
	}
	if p := lead.post(fmt.Sprintf("/p/alpha/members/%d/remove", eveU.ID), url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
		t.Fatalf("remove: %d", p.status)
	}
	if p := eve.get("/p/alpha"); p.status != http.StatusNotFound {
		t.Fatalf("eve after removal: %d", p.status)
	}
}

// TestSessionsInPlainWords reads the sessions table as a person would:
// times in words with the exact time on hover, and the browser by name
// with the raw agent only in the title.
func TestSessionsInPlainWords(t *testing.T) {
	f := newFixture(t)
	f.user("ana", false)
	b := f.browser()
	b.login("ana", testPassword)
	p := b.get("/account/sessions")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(p.body))
	if err != nil {
		t.Fatal(err)
	}
	rows := doc.Find(`[data-testid="sessions"] tbody tr`)
	if rows.Length() != 1 {
		t.Fatalf("%d session rows, want 1", rows.Length())
	}
	cells := rows.First().Find("td")
	started := cells.Eq(0).Find("time")
	when, ok := started.Attr("datetime")
	if !ok || started.Text() != "just now" {
		t.Fatalf("started cell: %q (datetime %q)", cells.Eq(0).Text(), when)
	}
	if title, _ := started.Attr("title"); !regexp.MustCompile(`^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$`).MatchString(title) {
		t.Errorf("exact time on hover: %q", title)
	}
	browser := cells.Eq(3)
	if got := strings.TrimSpace(browser.Text()); got != "Go-http-client" {
		t.Errorf("browser cell says %q, want the client's name", got)
	}
	if agent, _ := browser.Attr("title"); !strings.HasPrefix(agent, "Go-http-client/") {
		t.Errorf("raw agent on hover: %q", agent)
	}
}
