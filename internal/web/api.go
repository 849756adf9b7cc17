package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/authn"
	"annotate/internal/domain"
)

// apiPrefix is where the JSON API lives. Its requests authenticate with a
// bearer token only: cookies are dropped before anything reads them and
// CSRF checks do not apply, since no browser sends the token by itself.
const apiPrefix = "/api/v1"

// ctxToken holds the *authn.Token of an API request.
const ctxToken = "api_token"

// isAPI reports whether a request path belongs to the JSON API.
func isAPI(path string) bool { return path == apiPrefix || strings.HasPrefix(path, apiPrefix+"/") }

// apiRoutes registers the JSON API. Every route but the description
// itself needs a token; handlers check the project role as its page does.
func (s *Server) apiRoutes(e *echo.Echo) {
	e.GET(apiPrefix+"/openapi.json", s.getOpenAPI)
	a := e.Group(apiPrefix, s.requireToken)
	a.GET("/projects", s.apiProjects)
	a.GET("/projects/:slug", s.apiProject)
	a.PUT("/projects/:slug/taxonomy", s.apiSetTaxonomy)
	a.POST("/projects/:slug/import", s.apiImport)
	a.GET("/projects/:slug/rounds", s.apiRounds)
	a.POST("/projects/:slug/rounds", s.apiCreateRound)
	a.GET("/projects/:slug/rounds/:rid", s.apiRound)
	a.POST("/projects/:slug/rounds/:rid/close", s.apiCloseRound)
	a.GET("/projects/:slug/labels", s.apiLabels)
	a.GET("/projects/:slug/gold", s.apiGold)
	a.POST("/projects/:slug/gold/resolve", s.apiResolveGold)
	a.GET("/projects/:slug/report", s.apiReport)
	a.GET("/projects/:slug/assist/runs", s.apiAssistRuns)
	a.POST("/projects/:slug/assist/runs", s.apiStartAssistRun)
	a.GET("/projects/:slug/assist/runs/:rid", s.apiAssistRun)
	a.POST("/projects/:slug/assist/runs/:rid/cancel", s.apiCancelAssistRun)
	a.GET("/projects/:slug/studies", s.apiStudies)
	a.POST("/projects/:slug/studies", s.apiCreateStudy)
	a.GET("/projects/:slug/studies/:name", s.apiStudy)
	a.GET("/projects/:slug/studies/:name/report", s.apiStudyReport)
	a.GET("/projects/:slug/webhooks", s.apiWebhooks)
	a.POST("/projects/:slug/webhooks", s.apiCreateWebhook)
	a.DELETE("/projects/:slug/webhooks/:wid", s.apiDeleteWebhook)
	a.GET("/projects/:slug/webhooks/:wid/deliveries", s.apiWebhookDeliveries)
}

// apiBoundary keeps cookies away from the API: a browser's session never
// authorises an API call, and an API call never starts a session.
func apiBoundary(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if isAPI(c.Request().URL.Path) {
			c.Request().Header.Del("Cookie")
		}
		return next(c)
	}
}

// requireToken authenticates an API request by its bearer token and makes
// the token's account the current user, through the same context value the
// cookie path sets. Failed attempts are throttled as logins are. A
// read-only token may only read.
func (s *Server) requireToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		scheme, secret, _ := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
		secret = strings.TrimSpace(secret)
		if !strings.EqualFold(scheme, "Bearer") || secret == "" {
			c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="annotate"`)
			return problemf(http.StatusUnauthorized, "token-required", "Send a personal access token as Authorization: Bearer TOKEN.")
		}
		// Like a login's username, the token's first characters name what
		// is being guessed: five misses block that token, thirty block the
		// address.
		addr := c.RealIP()
		account := "token:" + secret[:min(len(secret), 12)]
		if blocked, wait := s.throttle.blocked(account, addr); blocked {
			c.Response().Header().Set("Retry-After", retryAfter(wait))
			return problemf(http.StatusTooManyRequests, "too-many-attempts", "Too many failed token attempts; try again in %s seconds.", retryAfter(wait))
		}
		tok, u, err := s.authn.AuthenticateToken(c.Request().Context(), secret)
		if err == authn.ErrBadToken {
			s.throttle.fail(account, addr)
			c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="annotate", error="invalid_token"`)
			return problemf(http.StatusUnauthorized, "invalid-token", "The token is unknown, revoked or expired.")
		}
		if err != nil {
			return err
		}
		s.throttle.succeed(account, addr)
		c.Set(ctxUser, u)
		c.Set(ctxToken, tok)
		// Bodies are read only now that the caller is known: an import
		// takes an upload's limit, everything else a form's.
		limit := int64(maxFormBody)
		if strings.HasSuffix(c.Path(), "/import") {
			limit = s.cfg.MaxUploadBytes
		}
		if r := c.Request(); r.ContentLength > limit {
			return tooLarge(limit)
		} else {
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		}
		if m := c.Request().Method; tok.ReadOnly && m != http.MethodGet && m != http.MethodHead {
			return problemf(http.StatusForbidden, "read-only-token", "This token may only read.")
		}
		return next(c)
	}
}

// currentToken is the API request's token, or nil on other requests.
func currentToken(c echo.Context) *authn.Token {
	t, _ := c.Get(ctxToken).(*authn.Token)
	return t
}

// apiAccess is projectAccess for the API: the same roles, and a project
// outside the token's limits does not exist for it.
func (s *Server) apiAccess(c echo.Context, leadOnly bool) (access, error) {
	a, err := s.projectAccess(c, false)
	if err != nil {
		return a, err
	}
	if t := currentToken(c); t == nil || !t.AllowsProject(a.project.ID) {
		return access{}, domain.Errorf(domain.ENotFound, "project not found")
	}
	if leadOnly && !a.isLead() {
		return access{}, domain.Errorf(domain.EForbidden, "only a lead of this project can do that")
	}
	return a, nil
}
