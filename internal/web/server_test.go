package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/web"
)

// fixture is a real server on a loopback port over a real database file.
type fixture struct {
	t      testing.TB
	store  *tasks.Store
	server *web.Server
	srv    *httptest.Server
	ctx    context.Context
}

const testPassword = "a long enough password"

func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return &fixture{t: t, store: store, server: s, srv: srv, ctx: ctx}
}

func (f *fixture) user(name string, admin bool) *domain.User {
	f.t.Helper()
	u, err := f.store.CreateUser(f.ctx, name, "", testPassword, admin)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

func (f *fixture) project(slug string, members map[*domain.User]string) *domain.Project {
	f.t.Helper()
	p, err := f.store.CreateProject(f.ctx, domain.Project{Slug: slug, Name: "Project " + slug, Settings: domain.DefaultSettings()})
	if err != nil {
		f.t.Fatal(err)
	}
	for u, role := range members {
		if err := f.store.SetMember(f.ctx, p.ID, u.ID, role); err != nil {
			f.t.Fatal(err)
		}
	}
	return p
}

// browser is an HTTP client with a cookie jar that does not follow
// redirects, so tests see each status.
type browser struct {
	f      *fixture
	client *http.Client
}

func (f *fixture) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{f: f, client: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

type page struct {
	status int
	body   string
	header http.Header
	// trailer holds the trailers sent after the body.
	trailer http.Header
}

func (b *browser) do(req *http.Request) page {
	b.f.t.Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		b.f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return page{status: resp.StatusCode, body: string(body), header: resp.Header, trailer: resp.Trailer}
}

func (b *browser) get(path string) page {
	req, _ := http.NewRequest(http.MethodGet, b.f.srv.URL+path, nil)
	return b.do(req)
}

func (b *browser) post(path string, form url.Values) page {
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// csrf fetches a page and returns the token of its forms.
func (b *browser) csrf(path string) string {
	b.f.t.Helper()
	p := b.get(path)
	m := csrfField.FindStringSubmatch(p.body)
	if m == nil {
		b.f.t.Fatalf("no CSRF token on %s (status %d)", path, p.status)
	}
	return m[1]
}

func (b *browser) login(username, password string) page {
	tok := b.csrf("/login")
	return b.post("/login", url.Values{"_csrf": {tok}, "username": {username}, "password": {password}})
}

// testID reports whether the body, parsed as HTML, has an element with
// the data-testid.
func (p page) testID(id string) bool {
	d, err := goquery.NewDocumentFromReader(strings.NewReader(p.body))
	return err == nil && d.Find(tid(id)).Length() > 0
}

// TestHealthChecksTheDatabase: /healthz answers ok while the database
// answers, and 503 once it is closed.
func TestHealthChecksTheDatabase(t *testing.T) {
	f := newFixture(t)
	if p := f.browser().get("/healthz"); p.status != http.StatusOK || p.body != "ok" {
		t.Fatalf("healthy: %d %q", p.status, p.body)
	}
	f.store.Close()
	if p := f.browser().get("/healthz"); p.status != http.StatusServiceUnavailable {
		t.Fatalf("with the database closed: %d %q", p.status, p.body)
	}
}
