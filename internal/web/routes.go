package web

import (
	"context"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"annotate/web/static"
)

// routes registers every route in one place. Each group states who may
// call it; handlers check the project role themselves through
// projectAccess.
func (s *Server) routes() {
	e := s.echo
	e.Use(s.logRequests)
	e.Use(middleware.Recover())
	e.Use(removeUploads)
	e.Use(s.noteActivity)
	e.Use(securityHeaders(s.cfg.SecureCookies))
	e.Use(apiBoundary)
	e.Use(middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{Timeout: 60 * time.Second, Skipper: streamingRoute}))
	e.Use(s.loadUser)
	e.Use(s.limitBody)
	e.Use(s.csrf)

	e.GET("/static/*", echo.WrapHandler(http.StripPrefix("/static/", staticHandler(http.FS(static.FS)))))
	e.GET("/healthz", s.getHealth)

	// Anyone.
	e.GET("/login", s.getLogin)
	e.POST("/login", s.postLogin)
	e.POST("/logout", s.postLogout)
	// A crowd study's public entry link.
	e.GET("/s/:token", s.getStudyEntry)

	// Logged-in users; project routes check membership and role.
	u := e.Group("", requireUser)
	u.GET("/", func(c echo.Context) error { return c.Redirect(http.StatusSeeOther, "/projects") })
	u.GET("/projects", s.getProjects)
	u.GET("/study", s.getStudy)
	u.GET("/p/:slug/studies", s.getStudies)
	u.POST("/p/:slug/studies", s.postStudies)
	u.POST("/p/:slug/studies/plan", s.postStudyPlan)
	u.GET("/p/:slug/studies/:name", s.getStudyDetail)
	u.POST("/p/:slug/studies/:name/entry", s.postStudyEntry)
	u.GET("/p/:slug/studies/:name/report", s.getStudyReport)
	u.POST("/p/:slug/studies/:name/participants/:n", s.postParticipantDecision)
	u.POST("/study", s.postStudy)
	u.GET("/p/:slug", s.getProject)
	u.GET("/p/:slug/import", s.getImport)
	u.POST(importRoute, s.postImport, s.uploadGate)
	u.GET("/p/:slug/settings", s.getSettings)
	u.POST("/p/:slug/settings", s.postSettings)
	u.GET("/p/:slug/rounds", s.getRounds)
	u.POST("/p/:slug/rounds", s.postRounds)
	u.GET("/p/:slug/rounds/:rid", s.getRound)
	u.POST("/p/:slug/rounds/:rid/close", s.postCloseRound)
	u.POST("/p/:slug/rounds/:rid/assignments/:aid/release", s.postReleaseAssignment)
	u.POST("/p/:slug/rounds/:rid/assignments/:aid/reassign", s.postReassignAssignment)
	u.GET("/p/:slug/history/:aid", s.getHistory)

	// The labelling page: the annotator writes, leads of the project read.
	u.GET("/a/:id", s.getAssignment)
	u.POST("/a/:id/s/:sid", s.postSentenceLabel)
	u.POST("/a/:id/summary", s.postSummaryLabel)
	u.POST("/a/:id/kf/:kf/:sid", s.postKeyFactLink)
	u.POST("/a/:id/time", s.postActiveTime)
	u.POST("/a/:id/submit", s.postSubmit)

	s.labelRoutes(u)
	s.assistRoutes(u)
	s.reportRoutes(u)
	s.adjudicationRoutes(u)
	s.exportRoutes(u)
	s.accountRoutes(e, u)
	s.feedbackRoutes(u)
	s.roundStateRoutes(u)
	s.splitRoutes(u)
	s.tokenRoutes(u)
	s.apiRoutes(e)
	s.scaleRoutes(u)
}

// securityHeaders sets headers that every response should carry: no
// sniffing, no framing, no third-party scripts, nothing kept by caches
// (pages hold labels and CSRF tokens; the static handler overrides it),
// and, over HTTPS, HSTS.
func securityHeaders(https bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
			h.Set("Cache-Control", "no-store")
			if https {
				h.Set("Strict-Transport-Security", "max-age=63072000")
			}
			return next(c)
		}
	}
}

// staticHandler serves the embedded files; directories are not listed.
func staticHandler(fsys http.FileSystem) http.Handler {
	files := http.FileServer(noDirs{fsys})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})
}

// noDirs is a file system whose directories cannot be opened, so the file
// server lists none.
type noDirs struct{ http.FileSystem }

func (n noDirs) Open(name string) (http.File, error) {
	f, err := n.FileSystem.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || st.IsDir() {
		f.Close()
		return nil, fs.ErrNotExist
	}
	return f, nil
}

// getHealth answers a monitor: "ok" when the database answers a query
// within two seconds, 503 otherwise. It needs no login and says nothing
// more than that.
func (s *Server) getHealth(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.log.Error("health check", "err", err)
		return c.String(http.StatusServiceUnavailable, "database unavailable")
	}
	return c.String(http.StatusOK, "ok")
}
