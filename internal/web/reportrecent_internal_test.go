package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
)

// TestSlowReportMayBeOlder checks that a report slow to build is shown
// for longer while people label, in proportion to its build time, and a
// quick one for Config.ReportMaxAge.
func TestSlowReportMayBeOlder(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &Server{cfg: Config{ReportMaxAge: 30 * time.Second}}
	var c reportCache
	add := func(version int64, took, age time.Duration) reportKey {
		k := reportKey{project: 1, version: version}
		f := c.startLocked(k)
		c.finish(k, f, func() (*builtReport, error) {
			return &builtReport{version: version, builtAt: now.Add(-age), took: took}, nil
		})
		return k
	}
	add(1, time.Second, 40*time.Second)
	if b := c.recent(reportKey{project: 1, version: 9}, now, s.reportMaxAge); b != nil {
		t.Fatalf("a quick report 40 s old was shown (max age %v)", s.reportMaxAge(b))
	}
	add(2, 5*time.Second, 90*time.Second)
	b := c.recent(reportKey{project: 1, version: 9}, now, s.reportMaxAge)
	if b == nil || b.version != 2 {
		t.Fatalf("a report that took 5 s, 90 s old: got %+v, want it shown", b)
	}
	if got := s.reportMaxAge(b); got != 100*time.Second {
		t.Fatalf("max age %v, want 100 s", got)
	}
	if b := c.recent(reportKey{project: 1, version: 9}, now.Add(11*time.Second), s.reportMaxAge); b != nil {
		t.Fatalf("shown at 101 s old: %+v", b)
	}
}

// TestReportsOnOneCoreWhileOthersWork checks the signal behind
// report.Options.OneCore and export.Options.OneCore: a report's or an
// export's own requests do not count as others' work, nor do the
// requesting lead's own pages or the login page; any other request, by
// another user or by nobody logged in, does, for reportQuietFor.
func TestReportsOnOneCoreWhileOthersWork(t *testing.T) {
	s := &Server{}
	e := echo.New()
	lead, ann := &domain.User{ID: 7}, &domain.User{ID: 8}
	serve := func(u *domain.User, path string) {
		c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
		c.SetPath(path)
		if err := s.noteActivity(func(c echo.Context) error {
			if u != nil {
				setCurrentUser(c, u) // as the session middleware, inside the chain
			}
			return nil
		})(c); err != nil {
			t.Fatal(err)
		}
	}
	busy := func(u *domain.User) bool {
		c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
		if u != nil {
			setCurrentUser(c, u)
		}
		return s.othersServed(c)
	}
	if busy(lead) || busy(nil) {
		t.Fatal("a server that served nothing counts as busy")
	}
	for _, path := range []string{"/p/:slug/report", "/p/:slug/report.csv", "/p/:slug/export/download", apiPrefix + "/projects/:slug/labels",
		apiPrefix + "/projects/:slug/gold", apiPrefix + "/projects/:slug/report", "/static/*", "/healthz", "/login"} {
		serve(ann, path)
		serve(nil, path)
	}
	if busy(lead) {
		t.Fatal("report or export requests, static files, health checks or the login page count as others' work")
	}
	serve(lead, "/projects")
	serve(lead, "/p/:slug/export")
	if busy(lead) {
		t.Fatal("the lead's own pages count as others' work for the lead")
	}
	if !busy(ann) || !busy(nil) {
		t.Fatal("the lead's pages do not count as work for anyone else")
	}
	serve(ann, "/a/:id/s/:sid")
	if !busy(lead) {
		t.Fatal("an annotator's save does not count as others' work")
	}
	serve(lead, "/projects")
	if !busy(lead) {
		t.Fatal("the lead's page after an annotator's save hides the save")
	}
	s.active = activity{}
	serve(nil, "/s/:token")
	if !busy(lead) {
		t.Fatal("a request of nobody logged in (a study's entry) does not count as others' work")
	}
	s.active.note(ann.ID, time.Now().Add(-reportQuietFor-time.Second).UnixNano())
	if busy(lead) {
		t.Fatal("a save long ago still counts")
	}
}
