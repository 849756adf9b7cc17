package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Body limits. A visitor who has not logged in can send only a login form;
// a logged-in user's forms (labels, settings, guidelines) stay well under
// a megabyte. Only the import upload takes large bodies, and only from a
// lead of the project, checked before the body is read.
const (
	maxAnonymousBody = 16 << 10
	maxFormBody      = 1 << 20
	importRoute      = "/p/:slug/import"
	// uploadMemory is how much of a multipart body is kept in memory; the
	// rest of its files is spooled to temporary files.
	uploadMemory = 8 << 20
)

// removeUploads deletes the temporary files a multipart body was spooled
// to, whatever the request's outcome: imported, a dry run, refused, or
// forbidden by the CSRF check. net/http removes them only for the request
// it created, and the timeout middleware hands handlers a copy (made with
// WithContext) on which the form is parsed, so without this every upload
// past uploadMemory would stay in the temporary directory for good.
func removeUploads(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		defer func() {
			if f := c.Request().MultipartForm; f != nil {
				f.RemoveAll()
			}
		}()
		return next(c)
	}
}

// largeBody reports whether the request is the import upload, whose limit
// uploadGate applies after checking who sends it.
func largeBody(c echo.Context) bool {
	return c.Request().Method == http.MethodPost && c.Path() == importRoute
}

func tooLarge(limit int64) error {
	return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
		fmt.Sprintf("The request is larger than this server accepts here (%d KiB).", limit>>10))
}

// limitBody caps the request body by who is asking; a declared length over
// the cap is refused before anything is read.
func (s *Server) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if largeBody(c) || isAPI(c.Request().URL.Path) {
			return next(c) // uploadGate or requireToken limits these once the caller is known
		}
		limit := int64(maxAnonymousBody)
		if currentUser(c) != nil {
			limit = maxFormBody
		}
		r := c.Request()
		if r.ContentLength > limit {
			return tooLarge(limit)
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		return next(c)
	}
}

// uploadGate admits the import upload: a lead of the project, a body within
// MaxUploadBytes, then the CSRF check (which reads the form).
func (s *Server) uploadGate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, err := s.projectAccess(c, true); err != nil {
			return err
		}
		r := c.Request()
		if r.ContentLength > s.cfg.MaxUploadBytes {
			return s.uploadTooLarge()
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, s.cfg.MaxUploadBytes)
		if err := s.checkCSRF(c); err != nil {
			var he *echo.HTTPError
			if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge {
				return s.uploadTooLarge()
			}
			return err
		}
		return next(c)
	}
}

func (s *Server) uploadTooLarge() error {
	return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("The upload is larger than this server accepts (%d MiB). Split the file and import the parts; importing the same records twice adds nothing.", s.cfg.MaxUploadBytes>>20))
}

// parseBody reads a form body once; a body over its limit is a 413, other
// unreadable bodies a 400.
func parseBody(r *http.Request) error {
	var err error
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		err = r.ParseMultipartForm(uploadMemory)
		if errors.Is(err, http.ErrNotMultipart) {
			err = nil
		}
	} else {
		err = r.ParseForm()
	}
	if err == nil {
		return nil
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(mbe.Limit)
	}
	return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
}
