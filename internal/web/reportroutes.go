package web

import "github.com/labstack/echo/v4"

// reportRoutes registers the agreement report pages and downloads for
// leads. Called from routes with the logged-in group; every handler checks
// that the user leads the project.
func (s *Server) reportRoutes(u *echo.Group) {
	u.GET("/p/:slug/report", s.getReport)
	u.GET("/p/:slug/report.csv", s.getReportCSV)
	u.GET("/p/:slug/report.json", s.getReportJSON)
}
