package web

import (
	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// access is what a user may do in one project.
type access struct {
	project *domain.Project
	role    string // the membership role; "lead" for admins
}

func (a access) isLead() bool { return a.role == domain.RoleLead }

// projectAccess loads the project named in the URL and the user's role in
// it. Non-members get 404, not 403, so project names do not leak. With
// leadOnly, members who are not leads get 403.
func (s *Server) projectAccess(c echo.Context, leadOnly bool) (access, error) {
	ctx := c.Request().Context()
	u := currentUser(c)
	p, err := s.store.ProjectBySlug(ctx, c.Param("slug"))
	if err != nil {
		return access{}, err
	}
	role, err := s.store.Role(ctx, p.ID, u.ID)
	if err != nil {
		return access{}, err
	}
	if u.IsAdmin {
		role = domain.RoleLead
	}
	if role == "" {
		return access{}, domain.Errorf(domain.ENotFound, "project not found")
	}
	if leadOnly && role != domain.RoleLead {
		return access{}, domain.Errorf(domain.EForbidden, "only a lead of this project can do that")
	}
	return access{project: p, role: role}, nil
}
