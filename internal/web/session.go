package web

import (
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
)

// The one place that knows the session's raw keys; handlers use the typed
// accessors below.
const (
	sessionName   = "annotate"
	keyUserID     = "uid"
	keyFlash      = "flash"
	keyFlashKind  = "flash_kind"
	ctxUser       = "user"
	ctxCSRFHeader = "csrf"
)

func (s *Server) session(c echo.Context) *sessions.Session {
	// A cookie that no longer decodes (keys rotated, tampered) yields a
	// fresh session, which is what we want.
	sess, _ := s.sessions.Get(c.Request(), sessionName)
	return sess
}

// sessionUserID returns the logged-in user's id, or 0.
func (s *Server) sessionUserID(c echo.Context) int64 {
	id, _ := s.session(c).Values[keyUserID].(int64)
	return id
}

// startSession logs a user in on a fresh session (new cookie value), so a
// session fixed before login cannot be reused.
func (s *Server) startSession(c echo.Context, userID int64) error {
	sess := s.session(c)
	sess.Values = map[any]any{keyUserID: userID}
	sess.IsNew = true
	return sess.Save(c.Request(), c.Response())
}

// endSession logs the user out and expires the cookie.
func (s *Server) endSession(c echo.Context) error {
	sess := s.session(c)
	sess.Values = map[any]any{}
	sess.Options.MaxAge = -1
	return sess.Save(c.Request(), c.Response())
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
