package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
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
// export's own requests do not count as others' work, any other request
// does, for reportQuietFor.
func TestReportsOnOneCoreWhileOthersWork(t *testing.T) {
	s := &Server{}
	e := echo.New()
	serve := func(path string) {
		c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
		c.SetPath(path)
		if err := s.noteActivity(func(echo.Context) error { return nil })(c); err != nil {
			t.Fatal(err)
		}
	}
	if s.othersServed() {
		t.Fatal("a server that served nothing counts as busy")
	}
	serve("/p/:slug/report")
	serve("/p/:slug/report.csv")
	serve("/p/:slug/export/download")
	serve(apiPrefix + "/projects/:slug/labels")
	serve(apiPrefix + "/projects/:slug/gold")
	serve(apiPrefix + "/projects/:slug/report")
	serve("/static/*")
	serve("/healthz")
	if s.othersServed() {
		t.Fatal("report or export requests, static files or health checks count as others' work")
	}
	serve("/p/:slug/export")
	if !s.othersServed() {
		t.Fatal("opening the export page does not count as others' work")
	}
	s.lastActive.Store(0)
	serve("/a/:id/s/:sid")
	if !s.othersServed() {
		t.Fatal("a save does not count as others' work")
	}
	s.lastActive.Store(time.Now().Add(-reportQuietFor - time.Second).UnixNano())
	if s.othersServed() {
		t.Fatal("a save long ago still counts")
	}
}
