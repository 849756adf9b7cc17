package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/iaa"
	"annotate/internal/jsonindent"
	"annotate/internal/report"
	"annotate/web/templates"
)

// reportSeed fixes the bootstrap of the web report, so that the page, its
// downloads and `annotate agreement --project` (whose default seed is the
// same) show the same intervals for the same labels.
const reportSeed = 1

// reportOptions reads the filters of a report URL: round, dimension,
// drafts=1 to count unsubmitted work too, and bootstrap=units|pairs for
// what α's bootstrap resamples.
func reportOptions(c echo.Context) (report.Options, error) {
	method, err := iaa.ParseBootstrapMethod(strings.TrimSpace(c.QueryParam("bootstrap")))
	if err != nil {
		return report.Options{}, domain.Errorf(domain.EInvalid, "bootstrap: unknown method %q; choose units or pairs", c.QueryParam("bootstrap"))
	}
	return report.Options{
		Round:           strings.TrimSpace(c.QueryParam("round")),
		Dimension:       strings.TrimSpace(c.QueryParam("dimension")),
		IncludeDrafts:   c.QueryParam("drafts") == "1",
		Bootstrap:       report.DefaultBootstrap,
		BootstrapMethod: method,
		Seed:            reportSeed,
	}, nil
}

// cachedReport returns a project's report for a lead, built once per
// version of its labels, gold, rounds and settings and kept (see
// reportCache), with annotator names replaced when the project anonymises
// them. An unknown round is 404; an unknown dimension 422, naming the
// field.
func (s *Server) cachedReport(c echo.Context, p *domain.Project, key reportKey) (*builtReport, error) {
	// The build outlives a request that gives up: others may wait for it.
	ctx := context.WithoutCancel(c.Request().Context())
	return s.reports.get(c.Request().Context(), key, s.reportBuilder(ctx, p, key, requesterID(c)))
}

// reportBuilder returns the function that builds p's report for key, as
// user asked for it: on one processor when others were served just
// before the build.
func (s *Server) reportBuilder(ctx context.Context, p *domain.Project, key reportKey, user int64) func() (*builtReport, error) {
	return func() (*builtReport, error) {
		start := time.Now()
		opt := key.opt
		opt.OneCore = s.othersServedBut(user)
		rep, err := s.app.Report(ctx, p, opt, app.NamesBySettings)
		if err != nil {
			return nil, err
		}
		return &builtReport{rep: rep, builtAt: s.cfg.Now(), took: time.Since(start)}, nil
	}
}

// reportRequest checks access and reads the options and cache key of a
// report request.
func (s *Server) reportRequest(c echo.Context) (access, reportKey, error) {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return a, reportKey{}, err
	}
	opt, err := reportOptions(c)
	if err != nil {
		return a, reportKey{}, err
	}
	key, err := s.reportKeyOf(c.Request().Context(), a.project, opt)
	return a, key, err
}

// reportNotModified sets the download's entity tag and answers 304 when the
// client holds the same report already.
func reportNotModified(c echo.Context, etag string) bool {
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	if notModified(c, etag) {
		c.NoContent(http.StatusNotModified)
		return true
	}
	return false
}

// getReport is the report page.
func (s *Server) getReport(c echo.Context) error {
	a, key, err := s.reportRequest(c)
	if err != nil {
		return err
	}
	p := a.project
	b, behind, err := s.pageReport(c, p, key)
	if err != nil {
		return err
	}
	adjudicate := a.role == domain.RoleLead || a.role == domain.RoleAdjudicator
	// The page's flash is taken once, here, and shown by render.
	pg := s.page(c, "")
	render := func() ([]byte, error) {
		// The dimension menu lists every dimension, also when one is chosen.
		v := s.reportView(c, p, b.rep, report.DimensionNames(p.Settings), key.opt, adjudicate)
		v.Page.FlashKind, v.Page.Flash = pg.FlashKind, pg.Flash
		v.ComputedAt = b.builtAt.UTC().Format(time.RFC3339)
		if behind {
			v.ComputedNote = fmt.Sprintf(", before the latest changes (a report is at most %s old while people label; the current one is being computed for your next view)", s.reportMaxAge(b).Round(time.Second))
		}
		var buf bytes.Buffer
		err := templates.ReportPage(v).Render(c.Request().Context(), &buf)
		return buf.Bytes(), err
	}
	// The same reader seeing the same report gets the page rendered for
	// them before; a page with a flash message is rendered afresh.
	if pg.Flash != "" || pg.User == nil {
		body, err := render()
		if err != nil {
			return err
		}
		return c.HTMLBlob(http.StatusOK, body)
	}
	reader := fmt.Sprintf("%q|%q|%q|%t|%t|%t", pg.User.Username, pg.User.DisplayName, pg.CSRF, pg.User.IsAdmin, adjudicate, behind)
	body, err := b.page(reader, render)
	if err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, body)
}

// getReportCSV downloads one table of the report as CSV.
func (s *Server) getReportCSV(c echo.Context) error {
	a, key, err := s.reportRequest(c)
	if err != nil {
		return err
	}
	p := a.project
	table := c.QueryParam("table")
	if !slices.Contains(report.Tables, table) {
		return domain.Errorf(domain.EInvalid, "table: unknown table %q; choose one of %s", table, strings.Join(report.Tables, ", "))
	}
	if reportNotModified(c, key.etag()) {
		return nil
	}
	b, err := s.cachedReport(c, p, key)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := b.rep.WriteCSV(&buf, table); err != nil {
		return err
	}
	attachment(c, p.Slug+"-agreement-"+table+".csv")
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// getReportJSON downloads the whole report as JSON.
func (s *Server) getReportJSON(c echo.Context) error {
	a, key, err := s.reportRequest(c)
	if err != nil {
		return err
	}
	p := a.project
	if reportNotModified(c, key.etag()) {
		return nil
	}
	b, err := s.cachedReport(c, p, key)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := jsonindent.Encode(&buf, b.rep); err != nil {
		return err
	}
	attachment(c, p.Slug+"-agreement.json")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, buf.Bytes())
}

// attachment makes the browser save the response under name.
func attachment(c echo.Context, name string) {
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+strings.ReplaceAll(name, `"`, "")+`"`)
}

// reportQuery is the query string that keeps a report's filters.
func reportQuery(opt report.Options, extra ...string) string {
	q := url.Values{}
	if opt.Round != "" {
		q.Set("round", opt.Round)
	}
	if opt.Dimension != "" {
		q.Set("dimension", opt.Dimension)
	}
	if opt.IncludeDrafts {
		q.Set("drafts", "1")
	}
	if opt.BootstrapMethod != iaa.BootstrapUnits {
		q.Set("bootstrap", opt.BootstrapMethod.String())
	}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}
