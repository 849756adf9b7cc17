package web

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// OpenAPI is the API's OpenAPI 3.1 description, written by hand once and
// checked by the tests against the router and against every answer.
//
//go:embed openapi.json
var OpenAPI []byte

// getOpenAPI serves the description; it needs no token.
func (s *Server) getOpenAPI(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, OpenAPI)
}
