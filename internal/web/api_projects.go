package web

import (
	"net/http"

	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// apiProjectItem is one project in the projects list.
type apiProjectItem struct {
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Role        string `json:"role"`
	CreatedAt   string `json:"created_at"`
	id          int64
}

// apiProjectDoc is a project with its label schema.
type apiProjectDoc struct {
	apiProjectItem
	Guidelines string                `json:"guidelines"`
	Settings   domain.Settings       `json:"settings"`
	ErrorTypes []domain.TaxonomyType `json:"error_types"`
}

// role as the API reports it: an administrator outside a project acts as
// its lead.
func apiRole(role string, u *domain.User) string {
	if u.IsAdmin && role == "" {
		return domain.RoleLead
	}
	return role
}

// apiProjects lists the projects the token may read, like the projects
// page does for its account.
func (s *Server) apiProjects(c echo.Context) error {
	u, tok := currentUser(c), currentToken(c)
	ps, err := s.store.ProjectsFor(c.Request().Context(), u)
	if err != nil {
		return err
	}
	items := []apiProjectItem{}
	for _, p := range ps {
		if tok.AllowsProject(p.ID) {
			items = append(items, apiProjectItem{Slug: p.Slug, Name: p.Name, Description: p.Description, Role: apiRole(p.Role, u), CreatedAt: p.CreatedAt, id: p.ID})
		}
	}
	page, err := paginate(c, items, func(p apiProjectItem) int64 { return p.id })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// apiProject reads one project's settings and label schema; every member
// may, as every member may open the project page.
func (s *Server) apiProject(c echo.Context) error {
	a, err := s.apiAccess(c, false)
	if err != nil {
		return err
	}
	p := a.project
	errorTypes := p.Settings.ErrorTaxonomy()
	if errorTypes == nil {
		errorTypes = []domain.TaxonomyType{}
	}
	return c.JSON(http.StatusOK, apiProjectDoc{
		apiProjectItem: apiProjectItem{Slug: p.Slug, Name: p.Name, Description: p.Description, Role: a.role, CreatedAt: p.CreatedAt},
		Guidelines:     p.Guidelines, Settings: p.Settings, ErrorTypes: errorTypes,
	})
}
