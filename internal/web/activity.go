package web

import (
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// A report or export made while people work takes one processor, not all
// of them: on a 2-core server a build of a large project on both cores
// held up every save for its duration. The server notes who it last
// served and when (see noteActivity), and a report built within
// reportQuietFor of someone else's request is built with
// report.Options.OneCore, an export made then with
// export.Options.OneCore. The reader's own requests do not count: the
// pages a lead opened on the way to a report made every report they
// opened right after logging in a one-processor build (7.5–9.8 s instead
// of 4.1–4.7 s for the report of 1.5M labels with gold). A request is
// noted when it has been served, so a long one (an upload) counts from
// its end.

// reportQuietFor is how long after the last other request a report may
// be built on every processor.
const reportQuietFor = 2 * time.Second

// activity is who was served last and when, and who before them: enough
// to tell, for any user, when someone else was last served.
type activity struct {
	mu sync.Mutex
	// last is the latest request's user (0 for nobody logged in) and its
	// time in Unix nanoseconds; other is the latest request of a user
	// other than last's.
	last, other servedAt
}

type servedAt struct {
	user int64
	at   int64
}

// note records a request of user at time at.
func (a *activity) note(user, at int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if user != a.last.user {
		a.other = a.last
	}
	a.last = servedAt{user, at}
}

// othersSince reports whether a user other than user was served at since
// or later.
func (a *activity) othersSince(user, since int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.last
	if s.user == user {
		s = a.other
	}
	return s.at != 0 && s.at >= since
}

// noteActivity records who was served and when, for each request that is
// someone's work: not a report's or an export's (leadRead), not a static
// file or a health check, which a page load or a monitor polling every few
// seconds would otherwise turn into "busy" for good, and not the login
// page, whose requests come before anyone is known. The user is read once
// the request is served, as the session or an API token names them on the
// way in.
func (s *Server) noteActivity(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		p := c.Path()
		if !leadRead(p) && !strings.HasPrefix(p, "/static/") && p != "/healthz" && p != "/login" {
			s.active.note(requesterID(c), time.Now().UnixNano())
		}
		return err
	}
}

// leadRead reports whether a route is a lead's long read that is built on
// one processor while others work: a report, or an export (a download or
// the API's labels and gold).
func leadRead(path string) bool {
	return strings.Contains(path, "/report") || strings.HasSuffix(path, "/export/download") ||
		path == apiPrefix+"/projects/:slug/labels" || path == apiPrefix+"/projects/:slug/gold"
}

// othersServed reports whether a request of anyone but the user c acts
// for was served within reportQuietFor.
func (s *Server) othersServed(c echo.Context) bool { return s.othersServedBut(requesterID(c)) }

// othersServedBut reports whether a request of anyone but user (0: nobody
// logged in) was served within reportQuietFor.
func (s *Server) othersServedBut(user int64) bool {
	return s.active.othersSince(user, time.Now().Add(-reportQuietFor).UnixNano())
}

// requesterID is the id of the user c acts for, 0 for nobody logged in.
func requesterID(c echo.Context) int64 {
	if u := currentUser(c); u != nil {
		return u.ID
	}
	return 0
}
