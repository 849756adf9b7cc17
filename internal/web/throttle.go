package web

import (
	"sync"
	"time"
)

// Login throttling limits failed attempts per account and per client
// address within a sliding window, which stops password guessing without
// locking out a whole office behind one address too early.
const (
	throttleWindow     = 15 * time.Minute
	maxFailsPerAccount = 5
	maxFailsPerAddress = 30
	throttleMaxKeys    = 100000
)

type throttle struct {
	mu    sync.Mutex
	now   func() time.Time
	fails map[string][]time.Time
}

func newThrottle(now func() time.Time) *throttle {
	return &throttle{now: now, fails: map[string][]time.Time{}}
}

// recent drops failures older than the window and returns the rest.
func (t *throttle) recent(key string) []time.Time {
	cut := t.now().Add(-throttleWindow)
	f := t.fails[key]
	i := 0
	for i < len(f) && f[i].Before(cut) {
		i++
	}
	f = f[i:]
	if len(f) == 0 {
		delete(t.fails, key)
	} else {
		t.fails[key] = f
	}
	return f
}

// blocked reports whether any key is over its limit, and when the oldest
// counted failure leaves the window.
func (t *throttle) blocked(account, address string) (bool, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range []struct {
		key   string
		limit int
	}{{"u:" + account, maxFailsPerAccount}, {"a:" + address, maxFailsPerAddress}} {
		f := t.recent(k.key)
		if len(f) >= k.limit {
			return true, f[0].Add(throttleWindow).Sub(t.now())
		}
	}
	return false, 0
}

func (t *throttle) fail(account, address string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.fails) > throttleMaxKeys {
		// Bound memory under a flood of made-up names: forget everything
		// rather than grow without limit.
		t.fails = map[string][]time.Time{}
	}
	now := t.now()
	t.fails["u:"+account] = append(t.fails["u:"+account], now)
	t.fails["a:"+address] = append(t.fails["a:"+address], now)
}

func (t *throttle) succeed(account string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.fails, "u:"+account)
}
