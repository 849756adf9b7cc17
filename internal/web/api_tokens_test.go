package web_test

import (
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"annotate/internal/authn"
	"annotate/internal/domain"
)

// TestAPITokens checks what a token opens: nothing once revoked or
// expired, no writes when read-only, only its projects when limited, and
// only what its account's role allows; and that cookies never stand in
// for a token.
func TestAPITokens(t *testing.T) {
	w := newWorkFixture(t)
	lea := must(w.store.UserByName(w.ctx, "lea"))(t)
	ann := must(w.store.UserByName(w.ctx, "ann"))(t)
	root := w.user("root", true)
	w.fixture.project("beta", map[*domain.User]string{lea: domain.RoleAnnotator})
	client := func(token string) *apiClient { return &apiClient{t: t, base: w.srv.URL, token: token} }

	t.Run("a revoked token gets 401", func(t *testing.T) {
		tok, secret, err := authn.New(w.store).CreateToken(w.ctx, lea.ID, authn.TokenSpec{Name: "nb", TTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		c := client(secret)
		if res := c.get("/api/v1/projects"); res.status != http.StatusOK {
			t.Fatalf("before revoking: %s", res)
		}
		if err := authn.New(w.store).RevokeToken(w.ctx, tok.ID, root); err != nil {
			t.Fatal(err)
		}
		res := c.get("/api/v1/projects")
		if pr := res.problem(t); res.status != http.StatusUnauthorized || pr.Type != "/api/v1/problems/invalid-token" {
			t.Fatalf("revoked: %s", res)
		}
		if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("WWW-Authenticate %q", res.header.Get("WWW-Authenticate"))
		}
	})
	t.Run("an expired token gets 401", func(t *testing.T) {
		tok, secret, err := authn.New(w.store).CreateToken(w.ctx, lea.ID, authn.TokenSpec{Name: "short", TTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		// Move its expiry into the past, as an hour passing would.
		db, err := sql.Open("sqlite", w.store.Path()+"?_pragma=busy_timeout(5000)")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`UPDATE api_tokens SET expires_at = ? WHERE id = ?`, time.Now().Add(-time.Second).UTC().Format(time.RFC3339Nano), tok.ID); err != nil {
			t.Fatal(err)
		}
		if res := client(secret).get("/api/v1/projects"); res.status != http.StatusUnauthorized {
			t.Fatalf("expired: %s", res)
		}
	})
	t.Run("no token, or another scheme, gets 401", func(t *testing.T) {
		res := (&apiClient{t: t, base: w.srv.URL, noCheck: true}).get("/api/v1/projects")
		if pr := res.problem(t); res.status != http.StatusUnauthorized || pr.Type != "/api/v1/problems/token-required" {
			t.Fatalf("no token: %s", res)
		}
		c := &apiClient{t: t, base: w.srv.URL, noCheck: true}
		if res := c.get("/api/v1/projects", "Authorization", "Basic bGVhOnB3"); res.status != http.StatusUnauthorized {
			t.Fatalf("basic auth: %s", res)
		}
	})
	t.Run("a read-only token reads but cannot import", func(t *testing.T) {
		c := client(newToken(t, w.fixture, lea, authn.TokenSpec{ReadOnly: true}))
		if res := c.get("/api/v1/projects/alpha/rounds"); res.status != http.StatusOK {
			t.Fatalf("read: %s", res)
		}
		res := c.upload("/api/v1/projects/alpha/import", map[string]string{"batch.jsonl": apiDocs})
		if pr := res.problem(t); res.status != http.StatusForbidden || pr.Type != "/api/v1/problems/read-only-token" {
			t.Fatalf("import: %s", res)
		}
		if o := must(w.store.ProjectOverview(w.ctx, w.project.ID))(t); o.Documents != 1 {
			t.Fatalf("%d documents after a refused import", o.Documents)
		}
	})
	t.Run("an annotator's token cannot read other annotators' labels", func(t *testing.T) {
		c := client(newToken(t, w.fixture, ann, authn.TokenSpec{}))
		for _, path := range []string{"/api/v1/projects/alpha/labels", "/api/v1/projects/alpha/gold", "/api/v1/projects/alpha/report", "/api/v1/projects/alpha/rounds"} {
			res := c.get(path)
			if pr := res.problem(t); res.status != http.StatusForbidden || pr.Type != "/api/v1/problems/forbidden" {
				t.Errorf("%s: %s", path, res)
			}
		}
		if res := c.get("/api/v1/projects/alpha"); res.status != http.StatusOK {
			t.Fatalf("the annotator's own project: %s", res)
		}
	})
	t.Run("a token limited to projects sees only them", func(t *testing.T) {
		beta := must(w.store.ProjectBySlug(w.ctx, "beta"))(t)
		c := client(newToken(t, w.fixture, lea, authn.TokenSpec{Projects: []int64{beta.ID}}))
		res := c.get("/api/v1/projects")
		var ps []struct{ Slug string }
		res.decode(t, &ps)
		if len(ps) != 1 || ps[0].Slug != "beta" {
			t.Fatalf("projects: %s", res)
		}
		if res := c.get("/api/v1/projects/alpha/rounds"); res.status != http.StatusNotFound {
			t.Fatalf("alpha: %s", res)
		}
	})
	t.Run("pages follow the Link header", func(t *testing.T) {
		c := client(newToken(t, w.fixture, root, authn.TokenSpec{}))
		var slugs []string
		path := "/api/v1/projects?limit=1"
		for path != "" {
			res := c.get(path)
			var ps []struct{ Slug string }
			res.decode(t, &ps)
			if res.status != http.StatusOK || len(ps) != 1 {
				t.Fatalf("%s: %s", path, res)
			}
			slugs = append(slugs, ps[0].Slug)
			path = ""
			if link := res.header.Get("Link"); link != "" {
				path = strings.TrimPrefix(strings.SplitN(link, ">", 2)[0], "<")
			}
		}
		if strings.Join(slugs, ",") != "alpha,beta" {
			t.Fatalf("pages: %v", slugs)
		}
		c.noCheck = true
		if res := c.get("/api/v1/projects?cursor=bogus!"); res.status != http.StatusUnprocessableEntity {
			t.Fatalf("bad cursor: %s", res)
		}
	})
	t.Run("a logged-in browser's cookies do not reach the API", func(t *testing.T) {
		b := w.browser()
		b.login("lea", testPassword)
		p := b.get("/api/v1/projects")
		if p.status != http.StatusUnauthorized || p.header.Get("Set-Cookie") != "" {
			t.Fatalf("cookie request: %d, Set-Cookie %q", p.status, p.header.Get("Set-Cookie"))
		}
	})
	t.Run("failed attempts are throttled", func(t *testing.T) {
		good := client(newToken(t, w.fixture, lea, authn.TokenSpec{}))
		bad := client(authn.TokenPrefix + "guessguessguessguess")
		for range 5 {
			if res := bad.get("/api/v1/projects"); res.status != http.StatusUnauthorized {
				t.Fatalf("bad token: %s", res)
			}
		}
		res := bad.get("/api/v1/projects")
		if pr := res.problem(t); res.status != http.StatusTooManyRequests || pr.Type != "/api/v1/problems/too-many-attempts" || res.header.Get("Retry-After") == "" {
			t.Fatalf("sixth try: %s", res)
		}
		if res := good.get("/api/v1/projects"); res.status != http.StatusOK {
			t.Fatalf("another token from the same address: %s", res)
		}
		for i := range 30 {
			client(fmt.Sprintf("%s%08dguessguess", authn.TokenPrefix, i)).get("/api/v1/projects")
		}
		if res := good.get("/api/v1/projects"); res.status != http.StatusTooManyRequests {
			t.Fatalf("after 30 failures from the address: %s", res)
		}
	})
}
