package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/export"
)

// apiLabels streams every annotator's labels as the raw export (JSON Lines
// unless format=csv), for leads, as the export page does.
func (s *Server) apiLabels(c echo.Context) error { return s.apiExport(c, export.Raw) }

// apiGold streams the gold export: the records of annotate export --what
// gold --format jsonl.
func (s *Server) apiGold(c echo.Context) error { return s.apiExport(c, export.Gold) }

// apiExport checks an export's filters (round, provenance, since,
// anonymise, format), answers 304 when the caller already has what they
// would produce, and otherwise streams it, under the same bounds as the
// export page's downloads (see exportlimit.go).
func (s *Server) apiExport(c echo.Context, what string) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	q := c.QueryParams()
	var provs []string
	for _, p := range q["provenance"] {
		provs = append(provs, strings.Split(p, ",")...)
	}
	opt := export.Options{What: what, Format: q.Get("format"), Round: q.Get("round"), Provenance: provs, OneCore: s.othersServed(c)}
	if v := q.Get("anonymise"); v != "" {
		if opt.Anonymise, err = strconv.ParseBool(v); err != nil {
			return invalidParam("anonymise", "anonymise must be true or false")
		}
	}
	if v := q.Get("since"); v != "" {
		if opt.Since, err = time.Parse(time.RFC3339Nano, v); err != nil {
			return invalidParam("since", "since must be a time such as 2026-01-31T09:00:00Z")
		}
	}
	x, err := export.New(ctx, s.store, a.project, opt)
	if err != nil {
		return err
	}
	h := x.Header()
	etag, err := s.dataETag(c, a.project.ID, what, h.Format, h.Round, strings.Join(h.Provenance, ","), h.Since, strconv.FormatBool(h.Anonymised))
	if err != nil {
		return err
	}
	if notModified(c, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return s.streamExport(c, x, nil)
}

// apiReport is the agreement report as JSON: the document report.json
// downloads, with the same round and dimension filters.
func (s *Server) apiReport(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	opt, err := reportOptions(c)
	if err != nil {
		return err
	}
	key, err := s.reportKeyOf(c.Request().Context(), a.project, opt)
	if err != nil {
		return err
	}
	if reportNotModified(c, key.etag()) {
		return nil
	}
	b, err := s.cachedReport(c, a.project, key)
	if err != nil {
		return err
	}
	rep := b.rep
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(rep); err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, buf.Bytes())
}

// dataETag is a weak validator of what a project's data and the request's
// options produce, and sets it with Cache-Control: no-cache (store, but
// ask again). It is weak because an export's header carries its time.
func (s *Server) dataETag(c echo.Context, projectID int64, parts ...string) (string, error) {
	v, err := s.store.DataVersion(c.Request().Context(), projectID)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(v + "\x00" + strings.Join(parts, "\x00")))
	etag := `W/"` + hex.EncodeToString(h[:12]) + `"`
	c.Response().Header().Set("ETag", etag)
	c.Response().Header().Set("Cache-Control", "private, no-cache")
	return etag, nil
}

// notModified reports whether If-None-Match names etag (or is *), by the
// weak comparison RFC 9110 prescribes for it.
func notModified(c echo.Context, etag string) bool {
	inm := c.Request().Header.Get("If-None-Match")
	if inm == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}
