package web

import "github.com/labstack/echo/v4"

// feedbackRoutes registers the calibration feedback page. Called from
// routes with the logged-in group: an annotator reads their own feedback
// on a closed calibration round, a lead of the project anyone's.
func (s *Server) feedbackRoutes(u *echo.Group) {
	u.GET("/p/:slug/rounds/:rid/feedback", s.getFeedback)
}
