package web

import (
	"bytes"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"annotate/web/templates"
)

// render writes a component only once it has rendered whole, so a failed
// render never leaves half a page.
func (s *Server) render(c echo.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// page fills what every page carries: title, user, CSRF token and flash.
func (s *Server) page(c echo.Context, title string, crumbs ...templates.Link) templates.Page {
	p := templates.Page{Title: title, Crumbs: crumbs}
	if u := currentUser(c); u != nil {
		p.User = &templates.UserView{Username: u.Username, DisplayName: u.DisplayName, IsAdmin: u.IsAdmin}
		p.User.Participant = s.app.IsParticipant(c.Request().Context(), u)
	}
	p.CSRF = s.csrfToken(c)
	p.FlashKind, p.Flash = s.takeFlash(c)
	return p
}

// isHTMX reports whether htmx issued the request (it wants a fragment).
func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// redirect sends a browser to url after a successful POST (303), or tells
// htmx to navigate there.
func redirect(c echo.Context, url string) error {
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", url)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, url)
}
