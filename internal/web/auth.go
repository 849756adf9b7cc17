package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/semaphore"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// loadUser puts the session's user in the context when the account still
// exists and is enabled; a disabled account's sessions stop working at once.
func (s *Server) loadUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if id := s.sessionUserID(c); id != 0 {
			u, err := s.store.UserByID(c.Request().Context(), id)
			if err == nil && !u.Disabled {
				setCurrentUser(c, u)
			}
		}
		return next(c)
	}
}

// csrf refuses a state-changing request whose CSRF token does not match
// the session's.
func (s *Server) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if largeBody(c) {
			return next(c) // uploadGate checks it after authorization
		}
		if isAPI(c.Request().URL.Path) {
			return next(c) // bearer tokens only; apiBoundary dropped the cookies
		}
		if err := s.checkCSRF(c); err != nil {
			return err
		}
		return next(c)
	}
}

// requireUser sends anonymous visitors to the login page.
func requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if currentUser(c) != nil {
			return next(c)
		}
		if c.Request().Method != http.MethodGet {
			return echo.NewHTTPError(http.StatusUnauthorized, "Please log in again.")
		}
		return redirect(c, "/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
	}
}

// safeNext keeps a post-login redirect on this site: only a path on this
// site is accepted (no scheme, no host, no control characters or
// backslashes, which browsers drop or turn into slashes), else /projects.
func safeNext(next string) string {
	const home = "/projects"
	if len(next) > 2048 || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") {
		return home
	}
	for _, r := range next {
		if r < 0x20 || r == 0x7f || r == '\\' || r == utf8.RuneError {
			return home
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return home
	}
	return u.RequestURI()
}

func (s *Server) getLogin(c echo.Context) error {
	if currentUser(c) != nil {
		return c.Redirect(http.StatusSeeOther, safeNext(c.QueryParam("next")))
	}
	v := templates.LoginView{Page: s.page(c, "Log in"), Next: c.QueryParam("next")}
	return s.render(c, http.StatusOK, templates.LoginPage(v))
}

func (s *Server) postLogin(c echo.Context) error {
	username := strings.TrimSpace(c.FormValue("username"))
	password := c.FormValue("password")
	next := c.FormValue("next")
	account := strings.ToLower(username)
	addr := c.RealIP()
	fail := func(status int, msg string) error {
		v := templates.LoginView{Page: s.page(c, "Log in"), Username: username, Next: next, Error: msg}
		return s.render(c, status, templates.LoginPage(v))
	}
	if blocked, wait := s.throttle.blocked(account, addr); blocked {
		mins := int(wait.Minutes()) + 1
		return fail(http.StatusTooManyRequests, fmt.Sprintf("Too many failed attempts. Try again in %d minutes.", mins))
	}
	release, err := s.loginSlot(c)
	if err == errLoginBusy {
		// The form comes back with the name kept, so a retry is one click.
		c.Response().Header().Set("Retry-After", strconv.Itoa(loginRetryAfter))
		return fail(http.StatusServiceUnavailable, loginBusyMessage)
	}
	if err != nil {
		return err
	}
	u, err := s.store.Authenticate(c.Request().Context(), username, password)
	release()
	if err != nil {
		if domain.ErrorCode(err) == domain.EForbidden {
			s.throttle.fail(account, addr)
			return fail(http.StatusUnauthorized, "Wrong username or password.")
		}
		return err
	}
	s.throttle.succeed(account, addr)
	if err := s.startSession(c, u.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeNext(next))
}

func (s *Server) postLogout(c echo.Context) error {
	if err := s.endSession(c); err != nil {
		return err
	}
	return redirect(c, "/login")
}

// loginBusyMessage answers a login that found no free password-check slot
// in time; loginRetryAfter is the Retry-After sent with it, in seconds.
const (
	loginBusyMessage = "The server is busy logging other people in. Please try again in a few seconds."
	loginRetryAfter  = 2
)

// errLoginBusy is acquireLogin's answer when no slot freed up in time.
var errLoginBusy = echo.NewHTTPError(http.StatusServiceUnavailable, loginBusyMessage)

func newLoginSemaphore(n int) *semaphore.Weighted { return semaphore.NewWeighted(int64(n)) }

// acquireLogin waits for one of the bounded password-check slots. A client
// that gave up while waiting is dropped before anything is hashed; when no
// slot frees up within LoginWait the answer is errLoginBusy, not a long
// wait.
func (s *Server) acquireLogin(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.logins.TryAcquire(1) {
		return nil
	}
	wait, cancel := context.WithTimeout(ctx, s.cfg.LoginWait)
	defer cancel()
	if err := s.logins.Acquire(wait, 1); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errLoginBusy
	}
	if err := ctx.Err(); err != nil {
		s.logins.Release(1)
		return err
	}
	return nil
}

// loginSlot takes a password-check slot for the request and returns the
// function that gives it back.
func (s *Server) loginSlot(c echo.Context) (release func(), err error) {
	if err := s.acquireLogin(c.Request().Context()); err != nil {
		return nil, err
	}
	return func() { s.logins.Release(1) }, nil
}
