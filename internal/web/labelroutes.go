package web

import (
	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// labelRoutes registers what an annotator does to a whole assignment
// beyond labelling it: skip it with a reason, take the skip back.
func (s *Server) labelRoutes(u *echo.Group) {
	u.POST("/a/:id/skip", s.postSkip)
	u.POST("/a/:id/unskip", s.postUnskip)
}

// postSkip records the annotator's skip and moves on to the next summary
// they have neither submitted nor skipped.
func (s *Server) postSkip(c echo.Context) error {
	a, p, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	if err := s.store.SkipAssignment(c.Request().Context(), a.ID, a.UserID, c.FormValue("reason")); err != nil {
		if domain.ErrorCode(err) == domain.EInvalid {
			if ferr := s.setFlash(c, "error", "Not skipped: "+domain.ErrorMessage(err)+"."); ferr != nil {
				return ferr
			}
			return redirect(c, assignmentURL(a.ID))
		}
		return err
	}
	next, err := s.store.NextOpen(c.Request().Context(), a)
	if err != nil {
		return err
	}
	if next != 0 && next != a.ID {
		if err := s.setFlash(c, "ok", "Skipped; the leads will see why. Here is the next summary."); err != nil {
			return err
		}
		return redirect(c, assignmentURL(next))
	}
	if err := s.setFlash(c, "ok", "Skipped; the leads will see why. Nothing else is left to label in this project."); err != nil {
		return err
	}
	return redirect(c, "/p/"+p.Slug)
}

func (s *Server) postUnskip(c echo.Context) error {
	a, _, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	if err := s.store.UnskipAssignment(c.Request().Context(), a.ID, a.UserID); err != nil {
		return err
	}
	return redirect(c, assignmentURL(a.ID))
}
