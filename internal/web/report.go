package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/report"
	"annotate/internal/tasks"
	"annotate/web/templates"
)

// reportSeed fixes the bootstrap of the web report, so that the page, its
// downloads and `annotate agreement --project` (whose default seed is the
// same) show the same intervals for the same labels.
const reportSeed = 1

// reportOptions reads the round and dimension filters of a report URL.
func reportOptions(c echo.Context) report.Options {
	return report.Options{
		Round:     strings.TrimSpace(c.QueryParam("round")),
		Dimension: strings.TrimSpace(c.QueryParam("dimension")),
		Bootstrap: report.DefaultBootstrap,
		Seed:      reportSeed,
	}
}

// buildReport loads a project's labels and builds its report for a lead,
// with annotator names replaced when the project anonymises them. An
// unknown round is 404; an unknown dimension 422, naming the field.
func (s *Server) buildReport(c echo.Context, p *tasks.Project, opt report.Options) (*report.Report, *tasks.ReportData, error) {
	data, err := s.store.ReportData(c.Request().Context(), p.ID, opt.Filter())
	if err != nil {
		return nil, nil, err
	}
	rep, err := report.Build(p.Slug, data, p.Settings, opt)
	if err != nil {
		return nil, nil, err
	}
	if p.Settings.AnonymousAdjudication {
		anonymise(rep)
	}
	return rep, data, nil
}

// getReport is the report page.
func (s *Server) getReport(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	opt := reportOptions(c)
	rep, _, err := s.buildReport(c, a.project, opt)
	if err != nil {
		return err
	}
	// The dimension menu lists every dimension, also when one is chosen.
	v := s.reportView(c, a.project, rep, report.DimensionNames(a.project.Settings), opt)
	return s.render(c, http.StatusOK, templates.ReportPage(v))
}

// getReportCSV downloads one table of the report as CSV.
func (s *Server) getReportCSV(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	if !slices.Contains(report.Tables, table) {
		return tasks.Errorf(tasks.EInvalid, "table: unknown table %q; choose one of %s", table, strings.Join(report.Tables, ", "))
	}
	rep, _, err := s.buildReport(c, a.project, reportOptions(c))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := rep.WriteCSV(&buf, table); err != nil {
		return err
	}
	attachment(c, a.project.Slug+"-agreement-"+table+".csv")
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// getReportJSON downloads the whole report as JSON.
func (s *Server) getReportJSON(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	rep, _, err := s.buildReport(c, a.project, reportOptions(c))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	attachment(c, a.project.Slug+"-agreement.json")
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
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}
