package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"annotate/internal/domain"
	"annotate/internal/report"

	"golang.org/x/sync/semaphore"
)

// maxCachedReports bounds the reports kept in memory; the oldest built is
// dropped first.
const maxCachedReports = 8

// reportKey is what a built report depends on: the project, its report
// version (bumped by every write the report reads, see
// tasks.Store.ReportVersion), its settings and the report's options.
type reportKey struct {
	project  int64
	version  int64
	settings string // a hash of the project's settings
	opt      report.Options
}

// builtReport is a report as built for a key, with when it was built and
// the entity tag of its downloads.
type builtReport struct {
	rep     *report.Report
	builtAt time.Time
	took    time.Duration // how long reading and building took
	etag    string
	version int64 // the project's report version it was built from

	// pages holds the page as rendered for a reader (user, CSRF token and
	// options): a view with nothing changed is a copy of bytes.
	mu    sync.Mutex
	pages map[string][]byte
}

// maxPagesPerReport bounds the rendered pages kept with one report.
const maxPagesPerReport = 8

// page returns the rendered page for a reader, rendering it with render
// the first time.
func (b *builtReport) page(reader string, render func() ([]byte, error)) ([]byte, error) {
	b.mu.Lock()
	if p, ok := b.pages[reader]; ok {
		b.mu.Unlock()
		return p, nil
	}
	b.mu.Unlock()
	p, err := render()
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if b.pages == nil || len(b.pages) >= maxPagesPerReport {
		b.pages = map[string][]byte{}
	}
	b.pages[reader] = p
	b.mu.Unlock()
	return p, nil
}

// reportCache keeps the reports built most recently, and builds each key
// once when several requests ask for it together. The zero value is ready
// to use.
type reportCache struct {
	// failed, when set, hears of background builds that failed (no request
	// waits for them to report their error).
	failed   func(key reportKey, err error)
	mu       sync.Mutex
	entries  map[reportKey]*builtReport
	order    []reportKey // oldest first
	building map[reportKey]*reportFlight

	slotsOnce sync.Once
	builds    *semaphore.Weighted // see slots
}

// reportFlight is a build in progress that later requests wait for.
type reportFlight struct {
	done chan struct{}
	b    *builtReport
	err  error
}

// reportKeyOf reads the project's report version: one indexed lookup.
func (s *Server) reportKeyOf(ctx context.Context, p *domain.Project, opt report.Options) (reportKey, error) {
	v, err := s.store.ReportVersion(ctx, p.ID)
	if err != nil {
		return reportKey{}, err
	}
	set, err := json.Marshal(p.Settings)
	if err != nil {
		return reportKey{}, err
	}
	h := sha256.Sum256(set)
	return reportKey{project: p.ID, version: v, settings: hex.EncodeToString(h[:8]), opt: opt}, nil
}

// etag names the report of a key in HTTP caches: the same labels, settings
// and options give the same tag.
func (k reportKey) etag() string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d|%d|%s|%+v", k.project, k.version, k.settings, k.opt))
	return `"r` + hex.EncodeToString(h[:12]) + `"`
}

// maxReportBuilds bounds the report builds under way at once. A build
// reads in a snapshot (a read connection) and outlives a request that
// gives up, so without a bound a lead asking for many option combinations
// could hold every read connection; two leave the rest of the pool (at
// least four) to pages.
const maxReportBuilds = 2

// get returns the cached report of key, building it with build when it is
// missing. A failed build is not cached. A request waits for a build slot
// and for the build with its own context: when it gives up it gets ctx's
// error, and a build it had started goes on for the others waiting.
func (c *reportCache) get(ctx context.Context, key reportKey, build func() (*builtReport, error)) (*builtReport, error) {
	if b, f := c.lookup(key); b != nil {
		return b, nil
	} else if f != nil {
		return f.wait(ctx)
	}
	if err := c.slots().Acquire(ctx, 1); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if b, ok := c.entries[key]; ok {
		c.mu.Unlock()
		c.slots().Release(1)
		return b, nil
	}
	if f, ok := c.building[key]; ok {
		c.mu.Unlock()
		c.slots().Release(1)
		return f.wait(ctx)
	}
	f := c.startLocked(key)
	c.mu.Unlock()
	go func() {
		defer c.slots().Release(1)
		c.finish(key, f, build)
	}()
	return f.wait(ctx)
}

// lookup returns key's cached report, or its build under way.
func (c *reportCache) lookup(key reportKey) (*builtReport, *reportFlight) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.entries[key]; ok {
		return b, nil
	}
	return nil, c.building[key]
}

// slots returns the semaphore of build slots, made on first use.
func (c *reportCache) slots() *semaphore.Weighted {
	c.slotsOnce.Do(func() { c.builds = semaphore.NewWeighted(maxReportBuilds) })
	return c.builds
}

// wait returns the flight's report once built, or ctx's error if ctx ends
// first.
func (f *reportFlight) wait(ctx context.Context) (*builtReport, error) {
	select {
	case <-f.done:
		return f.b, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// startLocked registers a build of key; c.mu is held.
func (c *reportCache) startLocked(key reportKey) *reportFlight {
	f := &reportFlight{done: make(chan struct{})}
	if c.building == nil {
		c.building = map[reportKey]*reportFlight{}
		c.entries = map[reportKey]*builtReport{}
	}
	c.building[key] = f
	return f
}

// finish builds the report of a registered flight, keeps it and wakes the
// requests waiting for it. A build that panics fails like one that returns
// an error: every request waiting for it gets the error (a 500), none
// waits forever, and the next request builds afresh.
func (c *reportCache) finish(key reportKey, f *reportFlight, build func() (*builtReport, error)) {
	defer close(f.done)
	f.b, f.err = safeBuild(build)
	if f.err == nil {
		f.b.etag = key.etag()
		f.b.version = key.version
	}

	c.mu.Lock()
	delete(c.building, key)
	if f.err == nil {
		// Older versions of the same report are stale now.
		kept := c.order[:0]
		for _, k := range c.order {
			if k.project == key.project && k.version < key.version {
				delete(c.entries, k)
				continue
			}
			kept = append(kept, k)
		}
		c.order = kept
		for len(c.order) >= maxCachedReports {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
		c.entries[key] = f.b
		c.order = append(c.order, key)
	}
	c.mu.Unlock()
}

// safeBuild runs build, turning a panic into an error that carries the
// panic's value and stack for the log.
func safeBuild(build func() (*builtReport, error)) (b *builtReport, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("report build panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return build()
}
