package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/web/templates"
)

// tokenRoutes registers the account's API token pages. Called from routes
// with the logged-in group.
func (s *Server) tokenRoutes(u *echo.Group) {
	u.GET("/account/tokens", s.getTokens)
	u.POST("/account/tokens", s.postToken)
	u.POST("/account/tokens/:id/revoke", s.postRevokeToken)
}

const tokensURL = "/account/tokens"

// tokenRows turns tokens into rows, naming limited projects by slug.
func (s *Server) tokenRows(tokens []authn.Token, names map[int64]string) []templates.TokenRow {
	now := s.cfg.Now()
	rows := make([]templates.TokenRow, 0, len(tokens))
	for _, t := range tokens {
		r := templates.TokenRow{ID: t.ID, Username: t.Username, Name: t.Name, Hint: t.Hint, Scope: "all your projects", Access: "read and write",
			Expires: t.ExpiresAt.Format("2006-01-02 15:04 UTC"), LastUsed: "never", Status: "active"}
		if len(t.Projects) > 0 {
			var ps []string
			for _, id := range t.Projects {
				if n, ok := names[id]; ok {
					ps = append(ps, n)
				} else {
					ps = append(ps, "project "+strconv.FormatInt(id, 10))
				}
			}
			r.Scope = strings.Join(ps, ", ")
		}
		if t.ReadOnly {
			r.Access = "read only"
		}
		if t.LastUsedAt != "" {
			r.LastUsed = shortTime(t.LastUsedAt)
		}
		switch {
		case t.RevokedAt != "":
			r.Status = "revoked " + shortTime(t.RevokedAt)
		case !t.Active(now):
			r.Status = "expired"
		default:
			r.CanRevoke = true
		}
		rows = append(rows, r)
	}
	return rows
}

func (s *Server) tokensView(c echo.Context) (templates.TokensView, error) {
	ctx := c.Request().Context()
	u := currentUser(c)
	v := templates.TokensView{Page: s.page(c, "API tokens", templates.Link{Label: "Your account", Href: "/account"}), Errors: map[string]string{},
		Form: templates.TokenForm{Expires: "90d", Projects: map[string]bool{}}}
	projects, err := s.store.ProjectsFor(ctx, u)
	if err != nil {
		return v, err
	}
	names := map[int64]string{}
	for _, p := range projects {
		names[p.ID] = p.Slug
		v.Projects = append(v.Projects, templates.Option{Value: strconv.FormatInt(p.ID, 10), Label: p.Name + " (" + p.Slug + ")"})
	}
	mine, err := s.authn.Tokens(ctx, u.ID)
	if err != nil {
		return v, err
	}
	v.Tokens = s.tokenRows(mine, names)
	if u.IsAdmin {
		all, err := s.authn.Tokens(ctx, 0)
		if err != nil {
			return v, err
		}
		v.All = s.tokenRows(all, names)
	}
	return v, nil
}

// getTokens lists the account's tokens (and, for an administrator,
// everyone's) with the form for a new one.
func (s *Server) getTokens(c echo.Context) error {
	v, err := s.tokensView(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.TokensPage(v))
}

// postToken creates a token and shows it once, on this response: it is
// not kept, so it cannot travel through a redirect.
func (s *Server) postToken(c echo.Context) error {
	u := currentUser(c)
	// A study's participants work through their study's pages only.
	if s.app.IsParticipant(c.Request().Context(), u) {
		return domain.Errorf(domain.EForbidden, "study participants cannot make API tokens")
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	f := templates.TokenForm{Name: strings.TrimSpace(form.Get("name")), Expires: form.Get("expires"), ReadOnly: form.Get("read_only") == "true", Projects: map[string]bool{}}
	errs := map[string]string{}
	spec := authn.TokenSpec{Name: f.Name, ReadOnly: f.ReadOnly}
	if spec.TTL, err = authn.ParseTokenTTL(f.Expires); err != nil {
		errs["expires"] = "Choose when the token expires."
	}
	for _, p := range form["projects"] {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			errs["projects"] = "Choose projects from the list."
			continue
		}
		f.Projects[p] = true
		spec.Projects = append(spec.Projects, id)
	}
	var secret string
	if len(errs) == 0 {
		if spec.Name == "" {
			errs["name"] = "Give the token a name, such as the script that will use it."
		} else {
			_, secret, err = s.authn.CreateToken(c.Request().Context(), u.ID, spec)
			switch {
			case domain.ErrorCode(err) == domain.EInvalid:
				errs["token"] = domain.ErrorMessage(err)
			case err != nil:
				return err
			default:
			}
		}
	}
	v, err := s.tokensView(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if len(errs) > 0 {
		v.Form, v.Errors = f, errs
		return s.render(c, http.StatusUnprocessableEntity, templates.TokensPage(v))
	}
	v.NewToken, v.NewTokenName = secret, spec.Name
	return s.render(c, http.StatusOK, templates.TokensPage(v))
}

// postRevokeToken ends a token at once: the owner's own, or anyone's for
// an administrator.
func (s *Server) postRevokeToken(c echo.Context) error {
	id, err := pathID(c, "id", "token")
	if err != nil {
		return err
	}
	if err := s.authn.RevokeToken(c.Request().Context(), id, currentUser(c)); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", fmt.Sprintf("Token %d revoked; scripts using it now get 401.", id)); err != nil {
		return err
	}
	return redirect(c, tokensURL)
}
