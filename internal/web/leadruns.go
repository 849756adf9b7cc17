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
	s.log.Error("lead's gold run stopped part-way", "path", c.Path(), "err", err)
	c.SetRequest(c.Request().WithContext(context.WithoutCancel(c.Request().Context())))
	msg := stoppedMessage(err, done, "Press the button again to finish the rest.")
	if ferr := s.setFlash(c, "error", msg); ferr != nil {
		return ferr
	}
	return redirect(c, adjQueueURL(slug))
}

// stoppedMessage says that a run stopped part-way with err, what it did
// and kept before (done), and how to finish (again).
func stoppedMessage(err error, done, again string) string {
	why := "of an error: " + domain.ErrorMessage(err)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		why = "the request ran out of time"
	case errors.Is(err, context.Canceled):
		why = "the request was cancelled"
	}
	return fmt.Sprintf("Stopped part-way, as %s. Done before it stopped, and kept: %s. %s", why, done, again)
}

// stoppedProblem is the API's answer to a gold run that stopped with err
// after doing what out counts (majority: whether it was to accept
// majorities too): the problem err makes (its status: 503 when out of
// time), of type stopped, saying what was kept, with the counts as its
// done member.
func (s *Server) stoppedProblem(c echo.Context, out apiResolveResult, majority bool, err error) error {
	s.log.Error("gold run stopped part-way", "path", c.Path(), "err", err)
	done := resolvedText(out.Summaries, out.Unanimous, out.Pending)
	if majority {
		done += fmt.Sprintf("; the majority accepted for %d sentences", out.Majority)
	}
	p := problemOf(err)
	p.Type = problemBase + "stopped"
	p.Detail = stoppedMessage(err, done, "Call again to finish the rest.")
	p.Done = &out
	return p
}

// resolvedText says what resolving did, as the queue's flashes and the
// API's problems say it.
func resolvedText(summaries, unanimous, pending int) string {
	return fmt.Sprintf("%d summaries looked at, %d sentences became unanimous, %d went to the queue", summaries, unanimous, pending)
}
