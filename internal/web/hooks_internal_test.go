package web

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// HoldLoginSlotsForTest takes n password-check slots, as n logins in
// progress would, and returns the function that gives them back.
func (s *Server) HoldLoginSlotsForTest(n int) func() {
	if err := s.logins.Acquire(context.Background(), int64(n)); err != nil {
		panic(err)
	}
	return func() { s.logins.Release(int64(n)) }
}

// GoldRunsForTest makes g run the lead's long gold operations in place
// of the store.
func (s *Server) GoldRunsForTest(g goldRuns) { s.gold = g }

// ExportSinkForTest puts f between every export and its download.
func (s *Server) ExportSinkForTest(f func(io.Writer) io.Writer) { s.exportSink = f }

// AfterEachRequestForTest calls f with each request's path once the
// server has answered it.
func (s *Server) AfterEachRequestForTest(f func(path string)) {
	s.echo.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			err := next(c)
			f(c.Request().URL.Path)
			return err
		}
	})
}

// Finding 3: a flood of made-up names filled the throttle, which then
// forgot everything, account locks included. Now the oldest entries go.
func TestThrottleEvictsOldest(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	th := newThrottle(func() time.Time { return now }, 50)
	for i := 0; i < maxFailsPerAccount; i++ {
		th.fail("victim", "10.0.0.1")
	}
	if b, _ := th.blocked("victim", "10.0.0.2"); !b {
		t.Fatal("victim not locked")
	}
	// Later failures from other places for names made up on the spot.
	for i := 0; i < 49; i++ {
		now = now.Add(time.Second)
		th.fail("made-up-"+string(rune('a'+i%26))+string(rune('a'+i/26)), "10.1.0."+string(rune('0'+i%10)))
	}
	if b, _ := th.blocked("victim", "10.0.0.2"); !b {
		t.Fatal("the victim's lock was forgotten while the log still had room for it")
	}
	if n := th.accounts.order.Len(); n > 50 {
		t.Fatalf("%d accounts kept, limit 50", n)
	}
	for i := 0; i < 10; i++ {
		now = now.Add(time.Second)
		th.fail("later-"+string(rune('a'+i)), "10.2.0.1")
	}
	if n := th.accounts.order.Len(); n != 50 {
		t.Fatalf("%d accounts kept, want 50 (full, oldest evicted)", n)
	}
	if _, ok := th.accounts.byKey["later-j"]; !ok {
		t.Fatal("the newest entry was evicted")
	}
}

// Issue 12: a client that gave up before a slot freed is dropped without
// hashing.
func TestLoginSlotAbandoned(t *testing.T) {
	s := &Server{}
	s.cfg.LoginWait = time.Minute
	s.logins = newLoginSemaphore(1)
	release := s.HoldLoginSlotsForTest(1)
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.acquireLogin(ctx); err != context.Canceled {
		t.Fatalf("abandoned request: %v, want context.Canceled", err)
	}
}
