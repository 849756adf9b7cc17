package web

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// The API's exports stream like the export page's: under the 60 s
// request timeout a large download over a slow link was cut off.
func TestExportRoutesAreLeftByTheRequestTimeout(t *testing.T) {
	e := echo.New()
	for path, want := range map[string]bool{
		"/p/:slug/export/download":      true,
		"/api/v1/projects/:slug/labels": true,
		"/api/v1/projects/:slug/gold":   true,
		"/api/v1/projects/:slug/report": false,
		"/p/:slug/report":               false,
	} {
		c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
		c.SetPath(path)
		if got := streamingRoute(c); got != want {
			t.Errorf("streamingRoute(%s) = %v, want %v", path, got, want)
		}
	}
}
