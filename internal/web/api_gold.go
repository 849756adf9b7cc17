package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"annotate/internal/tasks"
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
	if a.role != tasks.RoleLead && a.role != tasks.RoleAdjudicator {
		return tasks.Errorf(tasks.EForbidden, "only a lead or an adjudicator of this project can do that")
	}
	var in apiResolveSpec
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var out apiResolveResult
	var st tasks.ResolveStats
	if in.Round == "" {
		if in.AcceptMajority {
			return invalidParam("accept_majority", "accept_majority needs a round")
		}
		st, err = s.store.ResolveReady(ctx, a.project.ID)
	} else {
		r, rerr := s.store.RoundByName(ctx, a.project.ID, in.Round)
		if tasks.ErrorCode(rerr) == tasks.ENotFound {
			return invalidParam("round", "the project has no round named %q", in.Round)
		}
		if rerr != nil {
			return rerr
		}
		if st, err = s.store.ResolveRound(ctx, a.project.ID, r.ID); err == nil && in.AcceptMajority {
			out.Majority, err = s.store.AcceptMajority(ctx, a.project.ID, r.ID, currentUser(c).ID)
		}
	}
	if err != nil {
		return err
	}
	out.Summaries, out.Unanimous, out.Pending = st.Summaries, st.Unanimous, st.Pending
	return c.JSON(http.StatusOK, out)
}
