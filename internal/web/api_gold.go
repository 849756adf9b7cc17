package web

import (
	"net/http"

	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// apiResolveSpec is the body of a gold resolution: one round by name, or
// every summary that became ready; accept_majority (with a round) also
// takes the strict majority of each sentence still pending.
type apiResolveSpec struct {
	Round          string `json:"round"`
	AcceptMajority bool   `json:"accept_majority"`
}

// apiResolveResult counts what a resolution did.
type apiResolveResult struct {
	Summaries int `json:"summaries"`
	Unanimous int `json:"unanimous"`
	Pending   int `json:"pending"`
	Majority  int `json:"majority"`
}

// apiResolveGold resolves gold again as the adjudication queue's buttons
// do (submission already resolved it, so this picks up labels changed
// since): unanimous sentences become gold, the rest wait for a person
// unless the majority is accepted. Leads and adjudicators, as the queue.
func (s *Server) apiResolveGold(c echo.Context) error {
	a, err := s.apiAccess(c, false)
	if err != nil {
		return err
	}
	if a.role != domain.RoleLead && a.role != domain.RoleAdjudicator {
		return domain.Errorf(domain.EForbidden, "only a lead or an adjudicator of this project can do that")
	}
	var in apiResolveSpec
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var out apiResolveResult
	var st domain.ResolveStats
	if in.Round == "" {
		if in.AcceptMajority {
			return invalidParam("accept_majority", "accept_majority needs a round")
		}
		st, err = s.gold.ResolveReady(ctx, a.project.ID)
	} else {
		r, rerr := s.store.RoundByName(ctx, a.project.ID, in.Round)
		if domain.ErrorCode(rerr) == domain.ENotFound {
			return invalidParam("round", "the project has no round named %q", in.Round)
		}
		if rerr != nil {
			return rerr
		}
		if st, err = s.gold.ResolveRound(ctx, a.project.ID, r.ID); err == nil && in.AcceptMajority {
			out.Majority, err = s.gold.AcceptMajority(ctx, a.project.ID, r.ID, currentUser(c).ID)
		}
	}
	out.Summaries, out.Unanimous, out.Pending = st.Summaries, st.Unanimous, st.Pending
	if err != nil && (out.Summaries > 0 || out.Majority > 0) {
		return s.stoppedProblem(c, out, in.AcceptMajority, err)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}
