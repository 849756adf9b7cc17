package web

import "github.com/labstack/echo/v4"

// adjudicationRoutes registers the adjudication queue and page, the gold
// views and the export downloads. Called from routes with the logged-in
// group.
func (s *Server) adjudicationRoutes(u *echo.Group) {}
