package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// problemBase starts every problem type: a stable identifier per kind of
// error that scripts can compare, listed in the OpenAPI description.
const problemBase = "/api/v1/problems/"

// problemMediaType is RFC 9457's media type.
const problemMediaType = "application/problem+json"

// Problem is an RFC 9457 problem detail, the one error shape of the API.
type Problem struct {
	Type     string       `json:"type"`
	Title    string       `json:"title"`
	Status   int          `json:"status"`
	Detail   string       `json:"detail,omitempty"`
	Instance string       `json:"instance,omitempty"`
	Errors   []FieldError `json:"errors,omitempty"`
	// Done is what a long operation did, and kept, before it stopped
	// (type stopped): for gold/resolve, its counts.
	Done *apiResolveResult `json:"done,omitempty"`
}

// FieldError locates one problem in an input: an import file's line and
// field, or a request body's field.
type FieldError struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// Error implements error so handlers can return a problem.
func (p *Problem) Error() string { return p.Detail }

// problemf builds a problem of one type with a formatted detail.
func problemf(status int, kind, format string, args ...any) *Problem {
	return &Problem{Type: problemBase + kind, Title: http.StatusText(status), Status: status, Detail: fmt.Sprintf(format, args...)}
}

// problemKinds names the type of each status the API answers with when no
// handler chose a more precise one.
var problemKinds = map[int]string{
	http.StatusBadRequest:            "bad-request",
	http.StatusUnauthorized:          "token-required",
	http.StatusForbidden:             "forbidden",
	http.StatusNotFound:              "not-found",
	http.StatusMethodNotAllowed:      "method-not-allowed",
	http.StatusConflict:              "conflict",
	http.StatusRequestEntityTooLarge: "too-large",
	http.StatusUnprocessableEntity:   "invalid",
	http.StatusTooManyRequests:       "too-many-attempts",
	http.StatusServiceUnavailable:    "unavailable",
	http.StatusInternalServerError:   "internal",
}

// problemOf turns any error into a problem: problems pass through, domain
// and echo errors take their status's type. Internals never show.
func problemOf(err error) *Problem {
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	status, msg := statusOf(err)
	kind, ok := problemKinds[status]
	if !ok {
		kind = "error"
		if status >= 500 {
			kind = "internal"
		}
	}
	if status == http.StatusNotFound && msg == http.StatusText(status) {
		msg = "There is nothing here, or the token has no access to it."
	}
	return &Problem{Type: problemBase + kind, Title: http.StatusText(status), Status: status, Detail: msg}
}

// writeProblem is the API's branch of the error handler.
func (s *Server) writeProblem(err error, c echo.Context) {
	p := problemOf(err)
	if p.Status >= 500 && !errors.Is(err, errExportsBusy) {
		s.requestLog(c).Error("api request failed", "err", err)
	}
	setRetryAfter(c, p.Status)
	if p.Instance == "" {
		p.Instance = c.Request().URL.Path
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.Request().Method == http.MethodHead {
		c.NoContent(p.Status)
		return
	}
	body, merr := json.Marshal(p)
	if merr != nil {
		s.log.Error("encode problem", "err", merr)
		return
	}
	c.Blob(p.Status, problemMediaType, body)
}

// retryAfter is a wait in whole seconds, at least one.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}
