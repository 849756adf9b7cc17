package web

import "github.com/labstack/echo/v4"

// exportRoutes registers the export downloads (gold, raw, tofueval,
// scores). Called from routes with the logged-in group.
func (s *Server) exportRoutes(u *echo.Group) {}
