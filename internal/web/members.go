package web

import (
	"fmt"
	"strconv"
	"strings"

	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// rolesFor lists the roles a viewer may give or take away in a project:
// leads manage annotators and adjudicators; administrators, leads too.
func rolesFor(u *domain.User) []string {
	if u.IsAdmin {
		return []string{domain.RoleAnnotator, domain.RoleAdjudicator, domain.RoleLead}
	}
	return []string{domain.RoleAnnotator, domain.RoleAdjudicator}
}

func mayManage(u *domain.User, role string) bool {
	for _, r := range rolesFor(u) {
		if r == role {
			return true
		}
	}
	return false
}

// postMember adds a user to the project, or changes their role.
func (s *Server) postMember(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	me := currentUser(c)
	name, role := strings.TrimSpace(c.FormValue("username")), c.FormValue("role")
	if !mayManage(me, role) {
		return domain.Errorf(domain.EInvalid, "role: choose one of %s", strings.Join(rolesFor(me), ", "))
	}
	u, err := s.store.UserByName(ctx, name)
	if domain.ErrorCode(err) == domain.ENotFound {
		return domain.Errorf(domain.EInvalid, "username: no user %q; an administrator adds accounts", name)
	}
	if err != nil {
		return err
	}
	old, err := s.store.Role(ctx, a.project.ID, u.ID)
	if err != nil {
		return err
	}
	if old != "" && !mayManage(me, old) {
		return domain.Errorf(domain.EForbidden, "Only an administrator can change a lead's role.")
	}
	if err := s.store.SetMember(ctx, a.project.ID, u.ID, role); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", fmt.Sprintf("%s is now %s in this project.", u.Username, role)); err != nil {
		return err
	}
	return redirect(c, "/p/"+a.project.Slug)
}

// postRemoveMember takes a member out of the project; their labels stay.
func (s *Server) postRemoveMember(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.Param("uid"), 10, 64)
	if err != nil {
		return domain.Errorf(domain.ENotFound, "member not found")
	}
	role, err := s.store.Role(ctx, a.project.ID, id)
	if err != nil {
		return err
	}
	if role == "" {
		return domain.Errorf(domain.ENotFound, "member not found")
	}
	if !mayManage(currentUser(c), role) {
		return domain.Errorf(domain.EForbidden, "Only an administrator can remove a lead.")
	}
	if err := s.store.RemoveMember(ctx, a.project.ID, id); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Member removed; their labels are kept."); err != nil {
		return err
	}
	return redirect(c, "/p/"+a.project.Slug)
}
