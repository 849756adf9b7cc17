package web

import "github.com/labstack/echo/v4"

// adjudicationRoutes registers the adjudication queue and the
// adjudication page of a summary with its gold decisions. Called from
// routes with the logged-in group; every handler lets in only leads and
// adjudicators of the project (see adjudicationAccess).
func (s *Server) adjudicationRoutes(u *echo.Group) {
	u.GET("/p/:slug/adjudication", s.getAdjudicationQueue)
	u.POST("/p/:slug/adjudication/resolve", s.postResolve)
	u.POST("/p/:slug/adjudication/majority", s.postAcceptMajority)
	u.POST("/p/:slug/adjudication/reopen", s.postReopenImported)
	u.GET("/p/:slug/adjudication/s/:sum", s.getAdjudication)
	u.POST("/p/:slug/adjudication/s/:sum/gold/:sen", s.postGold)
	u.POST("/p/:slug/adjudication/s/:sum/reopen/:sen", s.postReopen)
}
