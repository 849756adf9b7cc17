package web_test

import (
	"net/http"
	"testing"

	"annotate/internal/domain"
)

func TestProjectAccess(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	ann := f.user("ann", false)
	other := f.user("oscar", false)
	admin := f.user("root", true)
	f.project("alpha", map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator})
	f.project("beta", map[*domain.User]string{other: domain.RoleLead})
	_ = admin

	cases := []struct {
		user, path string
		status     int
		testID     string
	}{
		{"lea", "/p/alpha", http.StatusOK, "documents"},
		{"lea", "/p/alpha/import", http.StatusOK, "import-submit"},
		{"lea", "/p/beta", http.StatusNotFound, "error"},
		{"ann", "/p/alpha", http.StatusOK, "queue-empty"},
		{"ann", "/p/alpha/import", http.StatusForbidden, "error"},
		{"ann", "/p/beta", http.StatusNotFound, "error"},
		{"ann", "/p/nope", http.StatusNotFound, "error"},
		{"oscar", "/p/alpha", http.StatusNotFound, "error"},
		{"root", "/p/alpha", http.StatusOK, "documents"},
		{"root", "/p/beta/import", http.StatusOK, "import-submit"},
	}
	for _, tc := range cases {
		t.Run(tc.user+" "+tc.path, func(t *testing.T) {
			b := f.browser()
			b.login(tc.user, testPassword)
			p := b.get(tc.path)
			if p.status != tc.status || !p.testID(tc.testID) {
				t.Fatalf("status %d (want %d), testid %q present: %v", p.status, tc.status, tc.testID, p.testID(tc.testID))
			}
		})
	}

	t.Run("annotator page hides the document list", func(t *testing.T) {
		b := f.browser()
		b.login("ann", testPassword)
		p := b.get("/p/alpha")
		p.mustFind(t, tid("queue-empty"))
		p.noneIn(t, "#main", tid("documents"))
		p.noneIn(t, "#main", tid("members"))
	})
	t.Run("project list shows only memberships", func(t *testing.T) {
		b := f.browser()
		b.login("ann", testPassword)
		p := b.get("/projects")
		links := p.mustFind(t, `#main a[data-testid^="project-"]`)
		if got := texts(links); len(got) != 1 || got[0] != "Project alpha" {
			t.Fatalf("project list: %q, want only Project alpha", got)
		}
	})
}
