package web

import (
	"context"
	"errors"
	"fmt"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
)

// goldRuns are the lead's long gold operations, written in batches: a
// run stopped part-way keeps the batches it finished and says how much
// that was beside its error. The server runs them on its store; tests
// stand in for them to stop one part-way.
type goldRuns interface {
	ResolveReady(ctx context.Context, projectID int64) (domain.ResolveStats, error)
	ResolveRound(ctx context.Context, projectID, roundID int64) (domain.ResolveStats, error)
	AcceptMajority(ctx context.Context, projectID, roundID, userID int64) (int, error)
}

// stoppedRun answers a lead's run that stopped with err after some of its
// batches were written (done says what they did): a flash on the
// adjudication queue says what stands and that the button finishes the
// rest, where an error page would hide the work kept. The flash is saved
// apart from the request's context, which may be what ended (the
// request's time limit, or the lead leaving the page); the error is
// logged.
func (s *Server) stoppedRun(c echo.Context, slug, done string, err error) error {
	why := "of an error: " + domain.ErrorMessage(err)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		why = "the request ran out of time"
	case errors.Is(err, context.Canceled):
		why = "the request was cancelled"
	}
	s.log.Error("lead's gold run stopped part-way", "path", c.Path(), "err", err)
	c.SetRequest(c.Request().WithContext(context.WithoutCancel(c.Request().Context())))
	msg := fmt.Sprintf("Stopped part-way, as %s. Done before it stopped, and kept: %s. Press the button again to finish the rest.", why, done)
	if ferr := s.setFlash(c, "error", msg); ferr != nil {
		return ferr
	}
	return redirect(c, adjQueueURL(slug))
}
