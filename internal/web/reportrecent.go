package web

import (
	"context"
	"time"

	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// While annotators work, every save changes the project's report version,
// so a report built for exactly the current version would be rebuilt on
// nearly every view: the report page instead shows a report of the same
// project, settings and options built at most Config.ReportMaxAge ago, says
// so, and, once that report is half that age, builds the current one in
// the background (one at a time) for the next views. Downloads and the API
// always get the current version.
//
// A report that is slow to build may be older: at most reportBuildShare
// times its build time, so that rebuilding it while people label takes no
// more than about a tenth of one core from their saves (it is rebuilt once
// half that age, that is every ten build times at most).

// reportBuildShare is how many times its build time a report shown while
// people label may be old, when that is more than Config.ReportMaxAge.
const reportBuildShare = 20

// reportMaxAge is how old b may be when the page shows it instead of the
// current report.
func (s *Server) reportMaxAge(b *builtReport) time.Duration {
	return max(s.cfg.ReportMaxAge, reportBuildShare*b.took)
}

// sameReport reports whether a and b are the same report (project,
// settings, options) whatever their versions.
func (a reportKey) sameReport(b reportKey) bool {
	return a.project == b.project && a.settings == b.settings && a.opt == b.opt
}

// recent returns the newest report kept for key's project, settings and
// options no older at now than maxAge allows it, of key's version or an
// older one; nil when there is none.
func (c *reportCache) recent(key reportKey, now time.Time, maxAge func(*builtReport) time.Duration) *builtReport {
	c.mu.Lock()
	defer c.mu.Unlock()
	var best *builtReport
	for _, k := range c.order {
		b := c.entries[k]
		if !k.sameReport(key) || k.version > key.version || b.builtAt.Before(now.Add(-maxAge(b))) {
			continue
		}
		if best == nil || b.version > best.version {
			best = b
		}
	}
	return best
}

// refresh builds key's report in the background unless a build of the
// same report (any version) is under way, or every build slot is taken
// (the page shows the report it has; a later view asks again).
func (c *reportCache) refresh(key reportKey, build func() (*builtReport, error)) {
	if !c.slots().TryAcquire(1) {
		return
	}
	c.mu.Lock()
	for k := range c.building {
		if k.sameReport(key) {
			c.mu.Unlock()
			c.slots().Release(1)
			return
		}
	}
	if _, ok := c.entries[key]; ok {
		c.mu.Unlock()
		c.slots().Release(1)
		return
	}
	f := c.startLocked(key)
	c.mu.Unlock()
	go func() {
		defer c.slots().Release(1)
		c.finish(key, f, build)
		if f.err != nil && c.failed != nil {
			c.failed(key, f.err)
		}
	}()
}

// underway returns a build of key's report (any version up to key's)
// that is under way, or nil.
func (c *reportCache) underway(key reportKey) *reportFlight {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, f := range c.building {
		if k.sameReport(key) && k.version <= key.version {
			return f
		}
	}
	return nil
}

// pageReport returns the report the page shows: a recent one (see above),
// or the current one, built now if need be. behind is true when labels,
// gold, rounds or settings changed after the report shown was built.
func (s *Server) pageReport(c echo.Context, p *domain.Project, key reportKey) (b *builtReport, behind bool, err error) {
	if s.cfg.ReportMaxAge > 0 {
		if b := s.reports.recent(key, s.cfg.Now(), s.reportMaxAge); b != nil {
			if b.version == key.version {
				return b, false, nil
			}
			// Built again once half its time is up, so that views stay
			// within their maximum age without a build after every save.
			if s.cfg.Now().Sub(b.builtAt) >= s.reportMaxAge(b)/2 {
				ctx := context.WithoutCancel(c.Request().Context())
				s.reports.refresh(key, s.reportBuilder(ctx, p, key, requesterID(c)))
			}
			return b, true, nil
		}
		// Readers arriving while the report is being built wait for that
		// build rather than start another for a newer version.
		if f := s.reports.underway(key); f != nil {
			if _, err := f.wait(c.Request().Context()); err != nil && c.Request().Context().Err() != nil {
				return nil, false, err
			}
			if f.err == nil {
				return f.b, f.b.version != key.version, nil
			}
		}
	}
	b, err = s.cachedReport(c, p, key)
	return b, false, err
}
