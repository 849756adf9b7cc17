package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/authn"
)

var newTokenValue = regexp.MustCompile(`value="(ann_[A-Za-z0-9_-]{20,})"`)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestTokensPage makes a token on the page, uses it, and revokes it: the
// token shows once, the list never shows it again, other accounts cannot
// revoke it and an administrator can revoke anyone's.
func TestTokensPage(t *testing.T) {
	w := newWorkFixture(t)
	w.user("root", true)
	beta := w.fixture.project("beta", nil)
	lea := w.browser()
	lea.login("lea", testPassword)

	tok := lea.csrf("/account/tokens")
	p := lea.post("/account/tokens", url.Values{"_csrf": {tok}, "name": {"weekly notebook"}, "expires": {"30d"}, "read_only": {"true"}})
	if p.status != http.StatusOK || !p.testID("new-token") || p.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("create: %d %q", p.status, p.header.Get("Cache-Control"))
	}
	m := newTokenValue.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatal("the new token is not on the page")
	}
	secret := m[1]
	api := &apiClient{t: t, base: w.srv.URL, token: secret}
	if res := api.get("/api/v1/projects/alpha/rounds"); res.status != http.StatusOK {
		t.Fatalf("the new token: %s", res)
	}
	if res := api.upload("/api/v1/projects/alpha/import", map[string]string{"a.jsonl": apiDocs}); res.status != http.StatusForbidden {
		t.Fatalf("the read-only token imported: %s", res)
	}

	list := lea.get("/account/tokens")
	// The secret is nowhere in the response; the row shows its name,
	// start and access.
	row := list.mustFind(t, tid("tokens")+" "+tid("token-"+itoa(must(authn.New(w.store).Tokens(w.ctx, 0))(t)[0].ID)))
	if got := textOf(row); !strings.Contains(got, secret[:8]+"…") || !strings.Contains(got, "weekly notebook") || !strings.Contains(got, "read only") {
		t.Fatalf("the token's row lacks its name, start or access: %q", got)
	}
	if strings.Contains(list.body, secret) {
		t.Fatal("the list shows the token")
	}
	list.noneIn(t, "#main", tid("new-token"))

	t.Run("bad input", func(t *testing.T) {
		for _, form := range []url.Values{
			{"name": {""}, "expires": {"30d"}},
			{"name": {"x"}, "expires": {"forever"}},
			{"name": {"x"}, "expires": {"30d"}, "projects": {"99999"}},
			{"name": {"x"}, "expires": {"30d"}, "projects": {itoa(beta.ID)}},
		} {
			form.Set("_csrf", tok)
			p := lea.post("/account/tokens", form)
			if p.status != http.StatusUnprocessableEntity {
				t.Errorf("%v: %d", form, p.status)
			}
			p.mustFind(t, tid("token-form"))
			p.noneIn(t, "#main", tid("new-token"))
		}
	})

	toks := must(authn.New(w.store).Tokens(w.ctx, 0))(t)
	id := itoa(toks[0].ID)
	t.Run("others cannot revoke it", func(t *testing.T) {
		ann := w.browser()
		ann.login("ann", testPassword)
		if p := ann.post("/account/tokens/"+id+"/revoke", url.Values{"_csrf": {ann.csrf("/account/tokens")}}); p.status != http.StatusNotFound {
			t.Fatalf("ann revoking lea's token: %d", p.status)
		}
		if res := api.get("/api/v1/projects"); res.status != http.StatusOK {
			t.Fatalf("after ann's attempt: %s", res)
		}
	})
	t.Run("an administrator revokes it", func(t *testing.T) {
		root := w.browser()
		root.login("root", testPassword)
		page := root.get("/account/tokens")
		page.mustFind(t, tid("all-tokens")+" "+tid("token-"+id)+" "+tid("revoke-"+id))
		if p := root.post("/account/tokens/"+id+"/revoke", url.Values{"_csrf": {root.csrf("/account/tokens")}}); p.status != http.StatusSeeOther {
			t.Fatalf("revoke: %d", p.status)
		}
		if res := api.get("/api/v1/projects"); res.status != http.StatusUnauthorized {
			t.Fatalf("after revoking: %s", res)
		}
		page = lea.get("/account/tokens")
		row := page.mustFind(t, tid("tokens")+" "+tid("token-"+id))
		if !strings.Contains(textOf(row), "revoked") || row.Find(tid("revoke-"+id)).Length() != 0 {
			t.Fatalf("lea's list does not show the token revoked: %q", textOf(row))
		}
	})
}
