package web

import "github.com/labstack/echo/v4"

// splitRoutes registers the page where a lead corrects a summary's
// sentence split before labelling starts. Called from routes with the
// logged-in group; leads of the project only.
func (s *Server) splitRoutes(u *echo.Group) {
	u.GET("/p/:slug/summaries/:sum/split", s.getSplit)
	u.POST("/p/:slug/summaries/:sum/split", s.postSplit)
}
