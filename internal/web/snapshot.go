package web

import (
	"context"

	"github.com/labstack/echo/v4"
)

// snapshot runs fn with the request's context carrying one read
// transaction of the store (see tasks.Store.Snapshot), so that every read
// a page makes sees the same state of the database.
func (s *Server) snapshot(c echo.Context, fn func() error) error {
	req := c.Request()
	defer c.SetRequest(req)
	return s.store.Snapshot(req.Context(), func(ctx context.Context) error {
		c.SetRequest(req.WithContext(ctx))
		return fn()
	})
}
