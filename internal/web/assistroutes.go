package web

import "github.com/labstack/echo/v4"

// assistRoutes registers the assistant's pages for leads (runs: start,
// watch, cancel, resume, evaluate). Called from routes with the logged-in
// group; every handler checks that the user leads the project.
func (s *Server) assistRoutes(u *echo.Group) {
	u.GET("/p/:slug/assist", s.getAssist)
	u.POST("/p/:slug/assist/runs", s.postAssistRun)
	u.GET("/p/:slug/assist/runs/:rid", s.getRunRow)
	u.POST("/p/:slug/assist/runs/:rid/cancel", s.postCancelRun)
	u.POST("/p/:slug/assist/runs/:rid/resume", s.postResumeRun)
}
