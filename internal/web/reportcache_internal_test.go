package web

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
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
			_, err := c.get(key, build)
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
	b, err := c.get(key, func() (*builtReport, error) { return &builtReport{}, nil })
	if err != nil || b == nil {
		t.Fatalf("the next build: %v", err)
	}
	c.failed = func(reportKey, error) {}
	if _, err := safeBuild(func() (*builtReport, error) { return nil, errors.New("plain") }); err == nil || err.Error() != "plain" {
		t.Fatalf("a plain error: %v", err)
	}
}
