package loadgen

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

var (
	adjLinkRe  = regexp.MustCompile(`href="(/p/[^/"]+/adjudication/s/\d+)[^"]*"[^>]*data-testid="adjudicate-link"`)
	computedRe = regexp.MustCompile(`data-testid="report-computed">Computed (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC`)
)

// reportRoute names a report page view by what it cost the server: a
// report computed more than a second before the request was sent
// ("cached"), or one computed for it or just before it ("new").
func reportRoute(body string, sent time.Time) string {
	const route = "lead GET /p/:slug/report"
	m := computedRe.FindStringSubmatch(body)
	if m == nil {
		return route
	}
	at, err := time.Parse("2006-01-02 15:04:05", m[1])
	if err != nil {
		return route
	}
	// The page gives whole seconds.
	if at.Add(time.Second).Before(sent) {
		return route + " (cached)"
	}
	return route + " (new)"
}

// leadThink is the pause between a lead's page views.
func (a *annotator) leadThink(ctx context.Context) bool {
	d := a.opts.LeadThink
	if d <= 0 {
		d = 2 * time.Second
	}
	d = time.Duration(float64(d) * (0.5 + a.rng.Float64()))
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// lead logs in and cycles through what a lead does while annotators work:
// the adjudication queue, an adjudication page from it, the agreement
// report and a gold export, which must end with its end record.
func (a *annotator) lead(ctx context.Context) {
	if !a.leadThink(ctx) { // leads arrive among the annotators
		return
	}
	if !a.login(ctx) {
		return
	}
	slug := "/p/" + a.opts.Project
	for n := 0; ctx.Err() == nil; n++ {
		_, page, err := a.do(ctx, "lead GET /p/:slug/adjudication", http.MethodGet, slug+"/adjudication", nil, http.StatusOK)
		if err != nil && ctx.Err() != nil {
			return
		}
		if links := adjLinkRe.FindAllStringSubmatch(page, 50); len(links) > 0 {
			if !a.leadThink(ctx) {
				return
			}
			path := links[a.rng.IntN(len(links))][1]
			a.do(ctx, "lead GET /p/:slug/adjudication/s/:sum", http.MethodGet, path, nil, http.StatusOK)
		}
		if !a.leadThink(ctx) {
			return
		}
		a.doAs(ctx, reportRoute, http.MethodGet, slug+"/report", nil, http.StatusOK)
		if !a.leadThink(ctx) {
			return
		}
		if n%2 == 0 {
			_, body, err := a.do(ctx, "lead GET /p/:slug/export/download", http.MethodGet, slug+"/export/download?what=gold&format=jsonl&round=calibration-1", nil, http.StatusOK)
			if err == nil && !strings.Contains(body[max(0, len(body)-100):], `{"kind":"end","records":`) {
				a.rec.record("lead export incomplete", 0, fmt.Errorf("the gold export did not end with its end record"))
			}
		}
		if !a.leadThink(ctx) {
			return
		}
	}
}
