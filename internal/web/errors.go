package web

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/web/templates"
)

// statusOf maps domain and echo errors to a status and a message fit for a
// user. Anything unknown is a 500 whose details stay in the log.
func statusOf(err error) (int, string) {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code)
		if m, ok := he.Message.(string); ok && he.Code < 500 {
			msg = m
		}
		return he.Code, msg
	}
	switch domain.ErrorCode(err) {
	case domain.ENotFound:
		return http.StatusNotFound, domain.ErrorMessage(err)
	case domain.EInvalid:
		return http.StatusUnprocessableEntity, domain.ErrorMessage(err)
	case domain.EConflict:
		return http.StatusConflict, domain.ErrorMessage(err)
	case domain.EForbidden:
		return http.StatusForbidden, domain.ErrorMessage(err)
	case domain.EUnavailable:
		return http.StatusServiceUnavailable, domain.ErrorMessage(err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return http.StatusServiceUnavailable, "The server took too long to answer, so this request was stopped. Please try again."
	}
	return http.StatusInternalServerError, domain.ErrorMessage(err)
}

var headings = map[int]string{
	http.StatusNotFound:              "Not found",
	http.StatusForbidden:             "Not allowed",
	http.StatusConflict:              "Changed elsewhere",
	http.StatusUnprocessableEntity:   "Please check your input",
	http.StatusTooManyRequests:       "Too many attempts",
	http.StatusRequestEntityTooLarge: "Upload too large",
	http.StatusServiceUnavailable:    "Try again in a moment",
}

// handleError is echo's error handler: one place that turns every error
// into a status and a friendly page, and logs only server faults.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	// A caller that went away cannot be answered; its request is not a
	// server fault.
	if tasks.Canceled(err) && c.Request().Context().Err() == context.Canceled {
		s.requestLog(c).Debug("client went away")
		return
	}
	if isAPI(c.Request().URL.Path) {
		s.writeProblem(err, c)
		return
	}
	status, msg := statusOf(err)
	// Middleware such as the request timeout may have cancelled the
	// request's context by now; the error page must still render.
	c.SetRequest(c.Request().WithContext(context.WithoutCancel(c.Request().Context())))
	if status >= 500 && !errors.Is(err, errExportsBusy) {
		s.requestLog(c).Error("request failed", "status", status, "err", err)
	}
	setRetryAfter(c, status)
	if c.Request().Method == http.MethodHead {
		c.NoContent(status)
		return
	}
	// A page's background save shows the message in its save status.
	if c.Request().Header.Get("HX-Request") == "true" && status >= 500 {
		c.String(status, msg)
		return
	}
	heading := headings[status]
	if heading == "" {
		heading = http.StatusText(status)
	}
	if status == http.StatusNotFound && msg == http.StatusText(status) {
		msg = "There is nothing here, or you do not have access to it."
	}
	v := templates.ErrorView{Page: s.page(c, heading), Status: status, Heading: heading, Message: msg}
	if rerr := s.render(c, status, templates.ErrorPage(v)); rerr != nil {
		s.log.Error("render error page", "err", rerr)
		c.String(status, msg)
	}
}

// setRetryAfter asks a client answered 503 to try again in 2 s, unless the
// handler named a wait of its own.
func setRetryAfter(c echo.Context, status int) {
	if status == http.StatusServiceUnavailable && c.Response().Header().Get("Retry-After") == "" {
		c.Response().Header().Set("Retry-After", "2")
	}
}
