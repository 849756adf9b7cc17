package web

import (
	"crypto/subtle"
	"net/http"

	"annotate/internal/domain"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
)

// The one place that knows the session's raw keys; handlers use the typed
// accessors below.
const (
	sessionName  = "annotate"
	keyUserID    = "_uid"
	keyFlash     = "flash"
	keyFlashKind = "flash_kind"
	ctxUser      = "user"
)

// cookieName is the session cookie's name: with the __Host- prefix over
// HTTPS, which browsers accept only when Secure, Path=/ and without a
// Domain, so no sibling site can set or overwrite it.
func cookieName(secure bool) string {
	if secure {
		return "__Host-" + sessionName
	}
	return sessionName
}

func (s *Server) session(c echo.Context) *sessions.Session {
	// A session that cannot be read (database error) is treated as
	// anonymous; the error shows up on the next write.
	sess, _ := s.sessions.Get(c.Request(), sessionName)
	return sess
}

// currentUser returns the user the request acts for, or nil. It is the one
// accessor for "who is calling": the session middleware sets it, and so may
// any other authentication (an API token).
func currentUser(c echo.Context) *domain.User {
	u, _ := c.Get(ctxUser).(*domain.User)
	return u
}

// setCurrentUser records who the request acts for.
func setCurrentUser(c echo.Context, u *domain.User) { c.Set(ctxUser, u) }

// sessionUserID returns the logged-in user's id, or 0.
func (s *Server) sessionUserID(c echo.Context) int64 {
	id, _ := s.session(c).Values[keyUserID].(int64)
	return id
}

// sessionID returns the id of the logged-in session (its row), or 0.
func (s *Server) sessionID(c echo.Context) int64 {
	id, _ := s.session(c).Values[keyRowID].(int64)
	return id
}

// startSession logs a user in on a new session: a new token, a new CSRF
// token, and the visitor's previous session (if any) ended, so a session
// fixed before login cannot be reused.
func (s *Server) startSession(c echo.Context, userID int64) error {
	sess := s.session(c)
	if old, _ := sess.Values[keyRowID].(int64); old != 0 {
		if err := s.authn.DeleteSession(c.Request().Context(), old, 0); err != nil {
			return err
		}
	}
	agent := c.Request().UserAgent()
	if len(agent) > 256 {
		agent = agent[:256]
	}
	sess.ID = ""
	sess.Values = map[any]any{keyUserID: userID, keyAddress: c.RealIP(), keyAgent: domain.CleanText(agent)}
	sess.IsNew = true
	return sess.Save(c.Request(), c.Response())
}

// endSession logs the user out: the session's row is deleted and the
// cookie expired.
func (s *Server) endSession(c echo.Context) error {
	sess := s.session(c)
	sess.Options = &sessions.Options{MaxAge: -1}
	return sess.Save(c.Request(), c.Response())
}

// csrfToken returns the token the request's forms must carry, giving an
// anonymous visitor a session token first if needed.
func (s *Server) csrfToken(c echo.Context) string {
	sess := s.session(c)
	if sess.ID == "" {
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			return ""
		}
	}
	return s.sessions.csrfToken(sess)
}

// checkCSRF compares the token sent in the X-CSRF-Token header or the
// _csrf form field of the body (never the query string) with the session's.
func (s *Server) checkCSRF(c echo.Context) error {
	sess := s.session(c)
	want := s.sessions.csrfToken(sess)
	r := c.Request()
	got := r.Header.Get("X-CSRF-Token")
	if got == "" {
		if err := parseBody(r); err != nil {
			return err
		}
		got = r.PostForm.Get("_csrf")
	}
	if want == "" || got == "" || subtle.ConstantTimeCompare([]byte(want), []byte(got)) != 1 {
		return echo.NewHTTPError(http.StatusForbidden, "This form has expired or did not come from this site. Reload the page and try again.")
	}
	return nil
}

// setFlash stores a message shown once on the next page.
func (s *Server) setFlash(c echo.Context, kind, msg string) error {
	sess := s.session(c)
	sess.Values[keyFlash] = msg
	sess.Values[keyFlashKind] = kind
	return sess.Save(c.Request(), c.Response())
}

// takeFlash returns and clears the flash message.
func (s *Server) takeFlash(c echo.Context) (kind, msg string) {
	sess := s.session(c)
	msg, _ = sess.Values[keyFlash].(string)
	if msg == "" {
		return "", ""
	}
	kind, _ = sess.Values[keyFlashKind].(string)
	delete(sess.Values, keyFlash)
	delete(sess.Values, keyFlashKind)
	if err := sess.Save(c.Request(), c.Response()); err != nil {
		return "", ""
	}
	return kind, msg
}
