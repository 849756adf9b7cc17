package web_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/web"
)

// The roles of the authorization matrix, in the order each route is tried.
var matrixRoles = []string{"anonymous", "other annotator", "lead of another project", "owner", "lead", "admin"}

// access is what each role gets from one route, in matrixRoles order.
type access [6]int

// matrixEntry is one route of the matrix: its expected statuses and, for a
// POST, the form it sends (built at request time, e.g. with the current
// version of an assignment).
type matrixEntry struct {
	route string // "METHOD /path/:param" exactly as registered
	want  access
	form  func(m *matrixFixture) url.Values
	path  func(m *matrixFixture) string // overrides the filled-in route path
}

const (
	ok   = http.StatusOK
	see  = http.StatusSeeOther
	none = http.StatusNoContent
	bad  = http.StatusUnprocessableEntity
	no   = http.StatusForbidden
	gone = http.StatusNotFound
	anon = http.StatusUnauthorized
	conf = http.StatusConflict
)

// lead-only page: anonymous to login, annotators 403, outsiders 404.
var leadPage = access{see, no, gone, no, ok, ok}

// matrix lists every route. A route the server registers that is missing
// here fails TestAuthorizationMatrix, so a new route cannot ship without
// saying who may call it. Destructive routes come last.
var matrix = []matrixEntry{
	{route: "GET /static/*", want: access{ok, ok, ok, ok, ok, ok}, path: func(*matrixFixture) string { return "/static/app.css" }},
	{route: "GET /healthz", want: access{ok, ok, ok, ok, ok, ok}},
	{route: "GET /login", want: access{ok, see, see, see, see, see}},
	{route: "POST /login", want: access{anon, anon, anon, anon, anon, anon}, form: func(m *matrixFixture) url.Values {
		m.n++
		return url.Values{"username": {"nobody" + strconv.Itoa(m.n)}, "password": {"wrong password"}}
	}},
	{route: "GET /", want: access{see, see, see, see, see, see}},
	{route: "GET /projects", want: access{see, ok, ok, ok, ok, ok}},
	{route: "GET /p/:slug", want: access{see, ok, gone, ok, ok, ok}},
	{route: "GET /p/:slug/import", want: leadPage},
	{route: "POST /p/:slug/import", want: access{anon, no, gone, no, bad, bad}},
	{route: "GET /p/:slug/settings", want: leadPage},
	{route: "POST /p/:slug/settings", want: access{anon, no, gone, no, see, see}, form: func(*matrixFixture) url.Values {
		return url.Values{"faithfulness": {"true"}, "error_types": {"true"}, "explanation": {"true"}, "ambiguity": {"true"}, "key_facts": {"true"},
			"relevance": {"true"}, "topic_category": {"true"}, "error_preset": {"tofueval"}, "assistant_visibility": {"after_first_label"}}
	}},
	{route: "GET /p/:slug/rounds", want: leadPage},
	{route: "POST /p/:slug/rounds", want: access{anon, no, gone, no, bad, bad}, form: func(*matrixFixture) url.Values { return url.Values{"name": {"x"}} }},
	{route: "GET /p/:slug/rounds/:rid", want: leadPage},
	{route: "GET /p/:slug/history/:aid", want: leadPage},
	{route: "GET /p/:slug/assist", want: leadPage},
	// This server has no model endpoint, so a lead's start is refused with 422.
	{route: "POST /p/:slug/assist/runs", want: access{anon, no, gone, no, bad, bad}, form: func(*matrixFixture) url.Values {
		return url.Values{"protocol": {"single"}, "model": {"m"}}
	}},
	{route: "GET /p/:slug/assist/runs/:rid", want: leadPage, path: func(m *matrixFixture) string { return m.assistRunPath("") }},
	{route: "POST /p/:slug/assist/runs/:rid/cancel", want: access{anon, no, gone, no, see, conf}, path: func(m *matrixFixture) string { return m.assistRunPath("/cancel") }},
	{route: "POST /p/:slug/assist/runs/:rid/resume", want: access{anon, no, gone, no, bad, bad}, path: func(m *matrixFixture) string { return m.assistRunPath("/resume") }},
	{route: "GET /a/:id", want: access{see, gone, gone, ok, ok, ok}},
	{route: "POST /a/:id/s/:sid", want: access{anon, gone, gone, ok, no, no}, form: func(m *matrixFixture) url.Values {
		return url.Values{"label": {"faithful"}, "version": {m.version()}}
	}},
	{route: "POST /a/:id/summary", want: access{anon, gone, gone, ok, no, no}, form: func(m *matrixFixture) url.Values {
		return url.Values{"relevance": {"4"}, "version": {m.version()}}
	}},
	{route: "POST /a/:id/kf/:kf/:sid", want: access{anon, gone, gone, ok, no, no}, form: func(m *matrixFixture) url.Values {
		return url.Values{"on": {"true"}, "version": {m.version()}}
	}},
	{route: "POST /a/:id/time", want: access{anon, gone, gone, none, no, no}, form: func(*matrixFixture) url.Values { return url.Values{"seconds": {"5"}} }},
	{route: "POST /a/:id/submit", want: access{anon, gone, gone, see, no, no}},
	{route: "POST /p/:slug/rounds/:rid/assignments/:aid/reassign", want: access{anon, no, gone, no, bad, bad}, form: func(m *matrixFixture) url.Values {
		return url.Values{"to": {strconv.FormatInt(m.outsiderLead.ID, 10)}}
	}},
	{route: "POST /p/:slug/rounds/:rid/assignments/:aid/release", want: access{anon, no, gone, no, see, conf}, path: func(m *matrixFixture) string {
		return fmt.Sprintf("/p/alpha/rounds/%d/assignments/%d/release", m.round, m.assign["bob"][1].ID)
	}},
	{route: "POST /p/:slug/rounds/:rid/close", want: access{anon, no, gone, no, see, conf}},
}

// moreMatrix holds the entries of features whose routes live in their own
// files; those files append to it from init. They run after matrix and
// before logout.
var moreMatrix []matrixEntry

// logoutEntry runs last: it ends every role's session.
var logoutEntry = matrixEntry{route: "POST /logout", want: access{see, see, see, see, see, see}}

// allMatrix is every entry in the order the test runs them.
func allMatrix() []matrixEntry {
	out := append([]matrixEntry{}, matrix...)
	out = append(out, moreMatrix...)
	return append(out, logoutEntry)
}

type matrixFixture struct {
	*workFixture
	server       *web.Server
	outsiderLead *domain.User
	round        int64
	keyFact      int64
	n            int
}

// version is the owner's assignment's current version.
func (m *matrixFixture) version() string {
	a := must(m.store.AssignmentByID(m.ctx, m.assign["ann"][0].ID))(m.t)
	return strconv.Itoa(a.Version)
}

func (m *matrixFixture) fill(route string) string {
	a := m.assign["ann"][0]
	r := strings.NewReplacer(
		":slug", "alpha",
		":rid", strconv.FormatInt(m.round, 10),
		":aid", strconv.FormatInt(a.ID, 10),
		":id", strconv.FormatInt(a.ID, 10),
		":sid", strconv.FormatInt(m.sentences[a.SummaryID][0], 10),
		":kf", strconv.FormatInt(m.keyFact, 10),
	)
	return r.Replace(strings.SplitN(route, " ", 2)[1])
}

func TestAuthorizationMatrix(t *testing.T) {
	w := newWorkFixture(t)
	m := &matrixFixture{workFixture: w}
	srv, err := web.New(w.ctx, w.store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	m.server = srv
	m.outsiderLead = w.user("oscar", false)
	w.fixture.project("beta", map[*domain.User]string{m.outsiderLead: domain.RoleLead})
	w.user("root", true)
	rounds := must(w.store.Rounds(w.ctx, w.project.ID))(t)
	m.round = rounds[0].ID
	sum := must(w.store.Summary(w.ctx, w.assign["ann"][0].SummaryID))(t)
	facts := must(w.store.KeyFacts(w.ctx, sum.DocumentID, sum.Topic))(t)
	m.keyFact = facts[0].ID

	t.Run("every route has an entry", func(t *testing.T) {
		have := map[string]bool{}
		for _, e := range allMatrix() {
			have[e.route] = true
		}
		var missing []string
		for _, r := range srv.Routes() {
			if !have[r] && !strings.HasPrefix(r, "echo_route_not_found") {
				missing = append(missing, r)
			}
			delete(have, r)
		}
		var stale []string
		for r := range have {
			stale = append(stale, r)
		}
		sort.Strings(stale)
		if len(missing) > 0 || len(stale) > 0 {
			t.Fatalf("routes without a matrix entry: %v\nmatrix entries for no route: %v", missing, stale)
		}
	})

	users := []string{"", "bob", "oscar", "ann", "lea", "root"}
	browsers := make([]*browser, len(users))
	tokens := make([]string, len(users))
	for i, u := range users {
		browsers[i] = w.browser()
		if u == "" {
			tokens[i] = browsers[i].csrf("/login")
			continue
		}
		if p := browsers[i].login(u, testPassword); p.status != http.StatusSeeOther {
			t.Fatalf("login %s: %d", u, p.status)
		}
		tokens[i] = browsers[i].csrf("/projects")
	}
	for _, e := range allMatrix() {
		method := strings.SplitN(e.route, " ", 2)[0]
		for i, role := range matrixRoles {
			path := m.fill(e.route)
			if e.path != nil {
				path = e.path(m)
			}
			var p page
			if method == http.MethodGet {
				p = browsers[i].get(path)
			} else {
				form := url.Values{}
				if e.form != nil {
					form = e.form(m)
				}
				form.Set("_csrf", tokens[i])
				p = browsers[i].post(path, form)
			}
			if p.status != e.want[i] {
				t.Errorf("%s as %s: status %d, want %d", e.route, role, p.status, e.want[i])
			}
		}
	}
}
