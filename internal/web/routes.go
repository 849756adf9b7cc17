package web

import (
	"net/http"
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
	e.Use(middleware.Recover())
	e.Use(securityHeaders)
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: byteLimit(s.cfg.MaxUploadBytes)}))
	e.Use(middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{Timeout: 60 * time.Second}))
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "form:_csrf,header:X-CSRF-Token",
		CookieName:     "_csrf",
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSecure:   s.cfg.SecureCookies,
		CookieSameSite: http.SameSiteLaxMode,
		ContextKey:     ctxCSRFHeader,
		ErrorHandler: func(err error, c echo.Context) error {
			return echo.NewHTTPError(http.StatusForbidden, "This form has expired or did not come from this site. Reload the page and try again.")
		},
	}))
	e.Use(s.loadUser)

	e.GET("/static/*", echo.WrapHandler(http.StripPrefix("/static/", staticHandler(http.FS(static.FS)))))
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })

	// Anyone.
	e.GET("/login", s.getLogin)
	e.POST("/login", s.postLogin)
	e.POST("/logout", s.postLogout)

	// Logged-in users; project routes check membership and role.
	u := e.Group("", requireUser)
	u.GET("/", func(c echo.Context) error { return c.Redirect(http.StatusSeeOther, "/projects") })
	u.GET("/projects", s.getProjects)
	u.GET("/p/:slug", s.getProject)
	u.GET("/p/:slug/import", s.getImport)
	u.POST("/p/:slug/import", s.postImport)
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

	s.assistRoutes(u)
	s.reportRoutes(u)
	s.adjudicationRoutes(u)
	s.exportRoutes(u)
	s.scaleRoutes(u)
}

// securityHeaders sets headers that every response should carry: no
// sniffing, no framing, no third-party scripts.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
		return next(c)
	}
}

func staticHandler(fsys http.FileSystem) http.Handler {
	fs := http.FileServer(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fs.ServeHTTP(w, r)
	})
}
