package web

import (
	"fmt"

	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// roundStateRoutes registers the undo of closing a round and of releasing
// an assignment. Called from routes with the logged-in group; leads only
// (see roundAccess).
func (s *Server) roundStateRoutes(u *echo.Group) {
	u.POST("/p/:slug/rounds/:rid/reopen", s.postReopenRound)
	u.POST("/p/:slug/rounds/:rid/assignments/:aid/restore", s.postRestoreAssignment)
}

func (s *Server) postReopenRound(c echo.Context) error {
	a, r, err := s.roundAccess(c)
	if err != nil {
		return err
	}
	if err := s.store.ReopenRound(c.Request().Context(), r.ID); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Round reopened: unsubmitted assignments can be labelled again."); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID))
}

func (s *Server) postRestoreAssignment(c echo.Context) error {
	a, r, err := s.roundAccess(c)
	if err != nil {
		return err
	}
	var aid int64
	if _, err := fmt.Sscan(c.Param("aid"), &aid); err != nil {
		return domain.Errorf(domain.ENotFound, "assignment not found")
	}
	if err := s.store.RestoreAssignment(c.Request().Context(), r.ID, aid); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Release undone: the assignment is back in its annotator's queue with its labels."); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID))
}

// dealingText says how a round's work was drawn and dealt, for its page.
func dealingText(r *domain.Round, d domain.RoundDealing) string {
	drawn := "Every chosen summary is in the round."
	if d.Sample > 0 {
		drawn = fmt.Sprintf("%d summaries drawn at random with seed %d.", d.Sample, d.Seed)
	}
	if r.Kind == domain.RoundCalibration {
		return drawn + " Every annotator labels every summary."
	}
	if d.Dealing == domain.DealByDocument {
		return drawn + " Dealt by document: each annotator gets all of a document's summaries, so loads may differ by a document's worth."
	}
	return drawn + " Dealt for balance: every annotator's load is within one summary of the others'."
}
