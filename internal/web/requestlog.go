package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"
)

// requestIDHeader carries a request's id back to the client, so a person
// reporting an error can name the log lines that go with it.
const requestIDHeader = "X-Request-Id"

type loggerKey struct{}

// logRequests gives every request an id and a logger that carries it with
// the route and the method, answers with the id in X-Request-Id, and logs
// each request when it ends: its status, latency and user (an account id;
// no names, addresses or form values reach the log). Requests are logged
// at Debug, those the client got wrong (4xx) at Info; server faults are
// logged by the error handler, at Error, with the same fields.
func (s *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		id := newRequestID()
		c.Response().Header().Set(requestIDHeader, id)
		log := s.log.With("request_id", id, "method", c.Request().Method, "route", c.Path())
		r := c.Request()
		c.SetRequest(r.WithContext(context.WithValue(r.Context(), loggerKey{}, log)))
		err := next(c)
		if err != nil {
			// Let the error handler write the answer now, so its status is
			// the one logged.
			c.Error(err)
		}
		status := c.Response().Status
		level := slog.LevelDebug
		if status >= 400 && status < 500 {
			level = slog.LevelInfo
		}
		attrs := []any{"status", status, "latency_ms", float64(time.Since(start).Microseconds()) / 1000}
		if u := currentUser(c); u != nil {
			attrs = append(attrs, "user_id", u.ID)
		}
		log.Log(r.Context(), level, "request", attrs...)
		return nil
	}
}

// requestLog returns the request's logger (see logRequests), or the
// server's when the request has none.
func (s *Server) requestLog(c echo.Context) *slog.Logger {
	if l, ok := c.Request().Context().Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return s.log
}

func newRequestID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// ParseLogLevel reads debug, info, warn or error, as given to --log-level.
func ParseLogLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}
