package web

import (
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// A report or export made while people work takes one processor, not all
// of them: on a 2-core server a build of a large project on both cores
// held up every save for its duration. The server notes when it last
// served someone's work (see noteActivity), and a report built within
// reportQuietFor of it is built with report.Options.OneCore, an export
// made then with export.Options.OneCore.

// reportQuietFor is how long after the last other request a report may
// be built on every processor.
const reportQuietFor = 2 * time.Second

// noteActivity records the time of each request that is someone's work:
// not a report's or an export's (leadRead), and not a static file or a
// health check, which a page load or a monitor polling every few seconds
// would otherwise turn into "busy" for good.
func (s *Server) noteActivity(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := c.Path()
		if !leadRead(p) && !strings.HasPrefix(p, "/static/") && p != "/healthz" {
			s.lastActive.Store(time.Now().UnixNano())
		}
		return next(c)
	}
}

// leadRead reports whether a route is a lead's long read that is built on
// one processor while others work: a report, or an export (a download or
// the API's labels and gold).
func leadRead(path string) bool {
	return strings.Contains(path, "/report") || strings.HasSuffix(path, "/export/download") ||
		path == apiPrefix+"/projects/:slug/labels" || path == apiPrefix+"/projects/:slug/gold"
}

// othersServed reports whether a request other than a report's was served
// within reportQuietFor.
func (s *Server) othersServed() bool {
	return time.Since(time.Unix(0, s.lastActive.Load())) < reportQuietFor
}
