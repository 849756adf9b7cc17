package web

import (
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/internal/export"
	"annotate/web/templates"
)

// exportRoutes registers the export downloads (gold, raw, tofueval,
// scores). Called from routes with the logged-in group.
func (s *Server) exportRoutes(u *echo.Group) {
	u.GET("/p/:slug/export", s.getExport)
	u.GET("/p/:slug/export/download", s.getExportDownload)
}

// streamingRoute tells the request timeout to leave the export downloads
// alone: they stream as long as the export takes, and stop when the client
// goes away or stops reading (see exportWriter).
func streamingRoute(c echo.Context) bool {
	switch c.Path() {
	case apiPrefix + "/projects/:slug/labels", apiPrefix + "/projects/:slug/gold":
		return true
	}
	return strings.HasSuffix(c.Path(), "/export/download")
}

// getExport shows the export form to leads of the project.
func (s *Server) getExport(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	rounds, err := s.store.Rounds(c.Request().Context(), a.project.ID)
	if err != nil {
		return err
	}
	v := templates.ExportView{Page: s.page(c, "Export", s.projectCrumbs(a.project)...), Slug: a.project.Slug,
		Provenances: append(append([]string{}, domain.GoldProvenances...), export.NoGold)}
	for _, r := range rounds {
		v.Rounds = append(v.Rounds, r.Name)
	}
	for _, k := range export.Kinds {
		v.Kinds = append(v.Kinds, templates.ExportKind{Value: k, Formats: strings.Join(export.Formats(k), " or ")})
	}
	return s.render(c, http.StatusOK, templates.ExportPage(v))
}

// getExportDownload streams an export as an attachment. The query names
// what (gold, raw, tofueval, scores), format, round, provenance (repeated
// or comma-separated) and anonymise. Options are checked before anything
// is sent, so a bad one gets an error page; the export's header travels
// in X-Export-* response headers as well as, for JSON Lines, in the file.
//
// The download is not subject to the request timeout nor the server's
// write timeout; instead each chunk must reach the client within
// ExportWriteTimeout, and at most MaxConcurrentExports downloads stream at
// once (more get 503). A complete download ends with the X-Export-Records
// and X-Export-Complete trailers (and, in JSON Lines, the end record); one
// that fails part-way is cut off without the end of the chunked body, so
// the client sees a broken transfer, never a short file that looks whole.
func (s *Server) getExportDownload(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	q := c.Request().URL.Query()
	var provs []string
	for _, p := range q["provenance"] {
		provs = append(provs, strings.Split(p, ",")...)
	}
	anon, _ := strconv.ParseBool(q.Get("anonymise"))
	x, err := export.New(ctx, s.store, a.project, export.Options{What: q.Get("what"), Format: q.Get("format"), Round: q.Get("round"),
		Provenance: provs, Anonymise: anon, OneCore: s.othersServed(c)})
	if err != nil {
		return err
	}
	return s.streamExport(c, x, func(hd http.Header) {
		hd.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": x.Filename()}))
		hd.Set("Cache-Control", "no-store")
	})
}

// streamExport writes export x as the response, for the page's and the
// API's downloads alike: it takes an export slot (see exportSlot), opens
// the export, sends the status with its content type, headers (the
// caller's, set by headers, and the X-Export-* ones) and the Trailer
// header naming X-Export-Records and X-Export-Complete, then the body and
// those trailers. An export that fails part-way is logged and its
// response aborted, so the client's transfer fails instead of ending as
// if the file were whole.
func (s *Server) streamExport(c echo.Context, x *export.Export, headers func(http.Header)) error {
	release, err := s.exportSlot(c)
	if err != nil {
		return err
	}
	defer release()
	if err := x.Open(c.Request().Context()); err != nil {
		return err
	}
	defer x.Close()
	h := x.Header()
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, x.ContentType())
	if headers != nil {
		headers(res.Header())
	}
	setExportHeaders(res.Header(), h)
	res.Header().Set("Trailer", "X-Export-Records, X-Export-Complete")
	out := s.exportWriter(res)
	if err := out.extend(); err != nil {
		return err
	}
	res.WriteHeader(http.StatusOK)
	if err := x.Write(c.Request().Context(), s.sink(out)); err != nil {
		s.exportStopped(c, h, err, out)
		panic(http.ErrAbortHandler)
	}
	res.Header().Set("X-Export-Records", strconv.Itoa(x.Records()))
	res.Header().Set("X-Export-Complete", "true")
	out.extend()
	return nil
}

// setExportHeaders names what an export holds in X-Export-* response
// headers, which is where a CSV export's header travels.
func setExportHeaders(hd http.Header, h export.Header) {
	hd.Set("X-Export-What", h.What)
	hd.Set("X-Export-Project", h.Project)
	hd.Set("X-Export-Round", h.Round)
	hd.Set("X-Export-Provenance", strings.Join(h.Provenance, ","))
	hd.Set("X-Export-Anonymised", strconv.FormatBool(h.Anonymised))
	hd.Set("X-Export-Time", h.ExportedAt)
	hd.Set("X-Export-Schema-Version", strconv.Itoa(h.SchemaVersion))
	hd.Set("X-Export-Version", strconv.Itoa(h.Version))
}
