package web

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"annotate/internal/report"
)

// TestPanickingReportBuildFailsEveryWaiter: a report build that panics
// answers every request waiting for it with an error, none hangs, and the
// next request builds afresh.
func TestPanickingReportBuildFailsEveryWaiter(t *testing.T) {
	var c reportCache
	key := reportKey{project: 1, version: 1}
	release := make(chan struct{})
	builds := 0
	var mu sync.Mutex
	build := func() (*builtReport, error) {
		mu.Lock()
		builds++
		mu.Unlock()
		<-release
		panic("a broken report")
	}
	const waiters = 5
	errs := make(chan error, waiters)
	for range waiters {
		go func() {
			_, err := c.get(context.Background(), key, build)
			errs <- err
		}()
	}
	close(release)
	for range waiters {
		select {
		case err := <-errs:
			if err == nil || !strings.Contains(err.Error(), "report build panicked: a broken report") {
				t.Fatalf("a waiter got %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a request waiting for a panicking build never got an answer")
		}
	}
	b, err := c.get(context.Background(), key, func() (*builtReport, error) { return &builtReport{}, nil })
	if err != nil || b == nil {
		t.Fatalf("the next build: %v", err)
	}
	c.failed = func(reportKey, error) {}
	if _, err := safeBuild(func() (*builtReport, error) { return nil, errors.New("plain") }); err == nil || err.Error() != "plain" {
		t.Fatalf("a plain error: %v", err)
	}
}

// Builds outlive the requests that start them, so many option
// combinations asked for at once (and given up on) could hold every read
// connection: no more than maxReportBuilds run together, and a request
// that gives up while waiting gets its context's error.
func TestReportBuildsAreBoundedAndWaitersMayLeave(t *testing.T) {
	var c reportCache
	var mu sync.Mutex
	running, most := 0, 0
	started := make(chan struct{}, 16)
	release := make(chan struct{})
	build := func() (*builtReport, error) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		started <- struct{}{}
		<-release
		mu.Lock()
		running--
		mu.Unlock()
		return &builtReport{}, nil
	}
	const asks = 6
	if maxReportBuilds >= asks {
		t.Fatalf("maxReportBuilds %d leaves nothing to bound with %d requests", maxReportBuilds, asks)
	}
	done := make(chan error, asks)
	ctx, cancel := context.WithCancel(context.Background())
	for i := range asks {
		go func() {
			_, err := c.get(ctx, reportKey{project: 1, version: 1, opt: optionsNumbered(i)}, build)
			done <- err
		}()
	}
	for range maxReportBuilds {
		<-started
	}
	// Every request gives up: each returns at once, the two builds under
	// way go on, and nothing else starts.
	cancel()
	for range asks {
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("a request that gave up got %v", err)
		}
	}
	close(release)
	// The builds under way finish and are kept; a later request for one
	// of them is served from the cache.
	c.mu.Lock()
	flights := make([]*reportFlight, 0, len(c.building))
	for _, f := range c.building {
		flights = append(flights, f)
	}
	c.mu.Unlock()
	for _, f := range flights {
		<-f.done
	}
	mu.Lock()
	defer mu.Unlock()
	if most > maxReportBuilds {
		t.Fatalf("%d builds ran at once, at most %d allowed", most, maxReportBuilds)
	}
	if n := len(started); n != 0 {
		t.Fatalf("%d more builds started for requests that had given up", n)
	}
}

// optionsNumbered gives distinct report options for i.
func optionsNumbered(i int) report.Options { return report.Options{Seed: uint64(i)} }
