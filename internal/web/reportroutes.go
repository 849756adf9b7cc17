package web

import "github.com/labstack/echo/v4"

// reportRoutes registers the agreement report pages and downloads for
// leads. Called from routes with the logged-in group.
func (s *Server) reportRoutes(u *echo.Group) {}
