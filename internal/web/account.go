package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// accountRoutes registers a user's own account pages (/account) and the
// administrators' user pages (/admin/users). The one-time password link
// works without a session.
func (s *Server) accountRoutes(e *echo.Echo, u *echo.Group) {
	e.GET("/account/reset/:token", s.getReset)
	e.POST("/account/reset/:token", s.postReset)

	u.GET("/account", s.getAccount)
	u.POST("/account/password", s.postPassword)
	u.GET("/account/sessions", s.getSessions)
	u.POST("/account/sessions/:sid/end", s.postEndSession)
	u.POST("/account/sessions/end-others", s.postEndOtherSessions)

	a := u.Group("/admin", requireAdmin)
	a.GET("/users", s.getUsers)
	a.POST("/users", s.postUsers)
	a.POST("/users/:uid/:action", s.postUserAction)

	u.POST("/p/:slug/members", s.postMember)
	u.POST("/p/:slug/members/:uid/remove", s.postRemoveMember)
}

// requireAdmin refuses everyone but administrators.
func requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if u := currentUser(c); u == nil || !u.IsAdmin {
			return domain.Errorf(domain.EForbidden, "Only administrators can manage users.")
		}
		return next(c)
	}
}

func (s *Server) accountView(c echo.Context, errs map[string]string) templates.AccountView {
	u := currentUser(c)
	return templates.AccountView{Page: s.page(c, "Your account"), Username: u.Username, DisplayName: u.DisplayName, IsAdmin: u.IsAdmin, Errors: errs}
}

func (s *Server) getAccount(c echo.Context) error {
	return s.render(c, http.StatusOK, templates.AccountPage(s.accountView(c, nil)))
}

// postPassword changes the user's own password. Every session of the
// account ends, and this browser gets a new one.
func (s *Server) postPassword(c echo.Context) error {
	u := currentUser(c)
	cur, next := c.FormValue("current"), c.FormValue("new")
	if next != c.FormValue("confirm") {
		return s.render(c, http.StatusUnprocessableEntity, templates.AccountPage(s.accountView(c, map[string]string{"new": "new password: the two new passwords differ."})))
	}
	// The current password is checked like a login: throttled per account
	// and address, and through the bounded password-check slots.
	account, addr := strings.ToLower(u.Username), c.RealIP()
	if blocked, wait := s.throttle.blocked(account, addr); blocked {
		return s.render(c, http.StatusTooManyRequests, templates.AccountPage(s.accountView(c, map[string]string{
			"current": fmt.Sprintf("current password: too many wrong attempts. Try again in %d minutes.", int(wait.Minutes())+1)})))
	}
	release, err := s.loginSlot(c)
	if err == errLoginBusy {
		c.Response().Header().Set("Retry-After", strconv.Itoa(loginRetryAfter))
		return s.render(c, http.StatusServiceUnavailable, templates.AccountPage(s.accountView(c, map[string]string{"current": loginBusyMessage})))
	}
	if err != nil {
		return err
	}
	err = s.store.ChangeOwnPassword(c.Request().Context(), u.ID, cur, next)
	release()
	switch domain.ErrorCode(err) {
	case "":
		s.throttle.succeed(account, addr)
	case domain.EForbidden:
		s.throttle.fail(account, addr)
		return s.render(c, http.StatusUnprocessableEntity, templates.AccountPage(s.accountView(c, map[string]string{"current": "current password: " + domain.ErrorMessage(err)})))
	case domain.EInvalid:
		return s.render(c, http.StatusUnprocessableEntity, templates.AccountPage(s.accountView(c, map[string]string{"new": "new password: " + domain.ErrorMessage(err)})))
	default:
		return err
	}
	msg := "Password changed. You were logged out everywhere else."
	if c.FormValue("revoke_tokens") == "true" {
		n, err := s.store.RevokeUserTokens(c.Request().Context(), u.ID)
		if err != nil {
			return err
		}
		msg += " " + strconv.Itoa(n) + " API tokens revoked."
	}
	if err := s.startSession(c, u.ID); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", msg); err != nil {
		return err
	}
	return redirect(c, "/account")
}

func (s *Server) getSessions(c echo.Context) error {
	u := currentUser(c)
	rows, err := s.authn.UserSessions(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	v := templates.SessionsView{Page: s.page(c, "Your sessions", templates.Link{Label: "Your account", Href: "/account"})}
	cur := s.sessionID(c)
	for _, r := range rows {
		v.Sessions = append(v.Sessions, templates.SessionRow{ID: r.ID, Created: sessionTime(r.CreatedAt), LastSeen: sessionTime(r.LastSeenAt),
			Address: r.Address, Browser: templates.BrowserName(r.UserAgent), Agent: r.UserAgent, Current: r.ID == cur})
	}
	return s.render(c, http.StatusOK, templates.SessionsPage(v))
}

func sessionTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

func (s *Server) postEndSession(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("sid"), 10, 64)
	if err != nil {
		return domain.Errorf(domain.ENotFound, "session not found")
	}
	if id == s.sessionID(c) {
		return s.postLogout(c)
	}
	if err := s.authn.DeleteSession(c.Request().Context(), id, currentUser(c).ID); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Session ended."); err != nil {
		return err
	}
	return redirect(c, "/account/sessions")
}

func (s *Server) postEndOtherSessions(c echo.Context) error {
	n, err := s.store.EndUserSessions(c.Request().Context(), currentUser(c).ID, s.sessionID(c))
	if err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Logged out everywhere else ("+strconv.Itoa(n)+" sessions ended)."); err != nil {
		return err
	}
	return redirect(c, "/account/sessions")
}
