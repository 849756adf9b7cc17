package web

import (
	"crypto/rand"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// resetLinkLifetime is how long a one-time password link works.
const resetLinkLifetime = 72 * time.Hour

func (s *Server) usersView(c echo.Context) (templates.UsersView, error) {
	me := currentUser(c)
	v := templates.UsersView{Page: s.page(c, "Users", templates.Link{Label: "Your account", Href: "/account"}), Errors: map[string]string{}}
	users, err := s.store.Users(c.Request().Context())
	if err != nil {
		return v, err
	}
	for _, u := range users {
		v.Users = append(v.Users, templates.UserRow{ID: u.ID, Username: u.Username, DisplayName: u.DisplayName, IsAdmin: u.IsAdmin,
			Disabled: u.Disabled, IsSelf: u.ID == me.ID, Created: u.CreatedAt})
	}
	return v, nil
}

func (s *Server) getUsers(c echo.Context) error {
	v, err := s.usersView(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.UsersPage(v))
}

// newPassword returns a random password of 16 base32 characters (80 bits).
func newPassword() string { return rand.Text()[:16] }

// issue gives an account a new way in: a printed password, or a one-time
// link (the account's password becomes a random one nobody knows). Either
// ends the account's sessions.
func (s *Server) issue(c echo.Context, u *domain.User, how string) (*templates.IssuedCredential, error) {
	ctx := c.Request().Context()
	pw := newPassword()
	if err := s.store.SetPassword(ctx, u.Username, pw); err != nil {
		return nil, err
	}
	if how == "password" {
		return &templates.IssuedCredential{Username: u.Username, Password: pw}, nil
	}
	token := newToken()
	if err := s.store.CreatePasswordReset(ctx, u.ID, currentUser(c).ID, tokenHash(token), s.cfg.Now().Add(resetLinkLifetime)); err != nil {
		return nil, err
	}
	// The link is built from the configured public URL, never from the
	// request's Host or forwarded headers, which a client chooses.
	link, whole := s.absoluteURL("/account/reset/" + token)
	return &templates.IssuedCredential{Username: u.Username, Link: link, Relative: !whole}, nil
}

func (s *Server) postUsers(c echo.Context) error {
	ctx := c.Request().Context()
	v, err := s.usersView(c)
	if err != nil {
		return err
	}
	v.Form = templates.NewUserForm{Username: strings.TrimSpace(c.FormValue("username")), DisplayName: strings.TrimSpace(c.FormValue("display")),
		Admin: c.FormValue("admin") == "true", Credential: c.FormValue("credential")}
	if err := domain.ValidateUsername(v.Form.Username); err != nil {
		v.Errors["username"] = "username: " + domain.ErrorMessage(err)
	}
	if err := domain.CheckText("display name", v.Form.DisplayName, domain.MaxNameLen, false); err != nil {
		v.Errors["display"] = domain.ErrorMessage(err)
	}
	if len(v.Errors) > 0 {
		return s.render(c, http.StatusUnprocessableEntity, templates.UsersPage(v))
	}
	u, err := s.store.CreateUser(ctx, v.Form.Username, v.Form.DisplayName, newPassword(), v.Form.Admin)
	if domain.ErrorCode(err) == domain.EConflict || domain.ErrorCode(err) == domain.EInvalid {
		v.Errors["username"] = "username: " + domain.ErrorMessage(err)
		return s.render(c, http.StatusUnprocessableEntity, templates.UsersPage(v))
	}
	if err != nil {
		return err
	}
	issued, err := s.issue(c, u, v.Form.Credential)
	if err != nil {
		return err
	}
	if v, err = s.usersView(c); err != nil {
		return err
	}
	v.Issued = issued
	return s.render(c, http.StatusOK, templates.UsersPage(v))
}

// postUserAction runs one administrator action on an account: disable,
// enable, admin (value true/false), reset (value link/password) or
// signout. Administrators cannot disable, demote or reset themselves here
// (they use their account page), so they cannot lock themselves out.
func (s *Server) postUserAction(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.Param("uid"), 10, 64)
	if err != nil {
		return domain.Errorf(domain.ENotFound, "user not found")
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return err
	}
	action, value := c.Param("action"), c.FormValue("value")
	self := u.ID == currentUser(c).ID
	if self && action != "signout" {
		return domain.Errorf(domain.EConflict, "You cannot %s your own account here; use your account page.", action)
	}
	var msg string
	switch action {
	case "disable", "enable":
		if err := s.store.SetDisabled(ctx, u.Username, action == "disable"); err != nil {
			return err
		}
		msg = u.Username + " " + action + "d."
	case "admin":
		if value != "true" && value != "false" {
			return domain.Errorf(domain.EInvalid, "value: true or false")
		}
		if err := s.store.SetAdmin(ctx, u.Username, value == "true"); err != nil {
			return err
		}
		msg = u.Username + " is now an administrator."
		if value == "false" {
			msg = u.Username + " is no longer an administrator."
		}
	case "reset":
		if value != "link" && value != "password" {
			return domain.Errorf(domain.EInvalid, "value: link or password")
		}
		issued, err := s.issue(c, u, value)
		if err != nil {
			return err
		}
		v, err := s.usersView(c)
		if err != nil {
			return err
		}
		v.Issued = issued
		return s.render(c, http.StatusOK, templates.UsersPage(v))
	case "signout":
		keep := int64(0)
		if self {
			keep = s.sessionID(c)
		}
		n, err := s.store.EndUserSessions(ctx, u.ID, keep)
		if err != nil {
			return err
		}
		tokens, err := s.store.RevokeUserTokens(ctx, u.ID)
		if err != nil {
			return err
		}
		msg = u.Username + ": " + strconv.Itoa(n) + " sessions ended, " + strconv.Itoa(tokens) + " API tokens revoked."
	default:
		return domain.Errorf(domain.ENotFound, "no such action")
	}
	if err := s.setFlash(c, "ok", msg); err != nil {
		return err
	}
	return redirect(c, "/admin/users")
}

func (s *Server) getReset(c echo.Context) error {
	u, err := s.store.PasswordResetUser(c.Request().Context(), tokenHash(c.Param("token")))
	if err != nil {
		return err
	}
	v := templates.ResetView{Page: s.page(c, "Set your password"), Token: c.Param("token"), Username: u.Username}
	return s.render(c, http.StatusOK, templates.ResetPage(v))
}

func (s *Server) postReset(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	u, err := s.store.PasswordResetUser(ctx, tokenHash(token))
	if err != nil {
		return err
	}
	v := templates.ResetView{Page: s.page(c, "Set your password"), Token: token, Username: u.Username}
	if c.FormValue("new") != c.FormValue("confirm") {
		v.Error = "new password: the two passwords differ."
		return s.render(c, http.StatusUnprocessableEntity, templates.ResetPage(v))
	}
	if _, err := s.store.UsePasswordReset(ctx, tokenHash(token), c.FormValue("new")); err != nil {
		if domain.ErrorCode(err) != domain.EInvalid {
			return err
		}
		v.Error = "new password: " + domain.ErrorMessage(err)
		return s.render(c, http.StatusUnprocessableEntity, templates.ResetPage(v))
	}
	v.Done = true
	return s.render(c, http.StatusOK, templates.ResetPage(v))
}
