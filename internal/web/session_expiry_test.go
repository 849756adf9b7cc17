package web_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"annotate/internal/web"
)

// clock is a settable time source for the server.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestSessionExpiry(t *testing.T) {
	c := &clock{t: time.Now()}
	f, _ := serverWith(t, web.Config{Now: c.now, SessionIdle: time.Hour, SessionMaxAge: 3 * time.Hour})
	f.user("ana", false)
	t.Run("idle timeout", func(t *testing.T) {
		b := f.browser()
		b.login("ana", testPassword)
		c.advance(59 * time.Minute)
		if p := b.get("/projects"); p.status != http.StatusOK {
			t.Fatalf("used within the idle time: %d", p.status)
		}
		c.advance(59 * time.Minute)
		if p := b.get("/projects"); p.status != http.StatusOK {
			t.Fatalf("each use restarts the idle time: %d", p.status)
		}
		c.advance(61 * time.Minute)
		if p := b.get("/projects"); p.status != http.StatusSeeOther {
			t.Fatalf("idle 61 minutes: %d, want 303 to login", p.status)
		}
	})
	t.Run("absolute expiry", func(t *testing.T) {
		b := f.browser()
		b.login("ana", testPassword)
		for i := 0; i < 3; i++ {
			c.advance(50 * time.Minute)
			if p := b.get("/projects"); p.status != http.StatusOK {
				t.Fatalf("after %d minutes: %d", 50*(i+1), p.status)
			}
		}
		c.advance(31 * time.Minute)
		if p := b.get("/projects"); p.status != http.StatusSeeOther {
			t.Fatalf("past the session's lifetime: %d, want 303", p.status)
		}
	})
}
