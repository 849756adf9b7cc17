package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Bounds on study entries from one address: a burst of entryBurst, then
// one every entryEvery. A study's link is public; this keeps one address
// from trying ids in bulk while a lab's shared address still lets a room
// of participants in.
const (
	entryBurst   = 30
	entryEvery   = 2 * time.Second
	entryMaxKeys = 50000
)

// entryLimiter rate-limits study entries by client address.
type entryLimiter struct {
	mu   sync.Mutex
	byIP map[string]*rate.Limiter
}

func newEntryLimiter() *entryLimiter { return &entryLimiter{byIP: map[string]*rate.Limiter{}} }

// allow says whether an entry from address may go on now.
func (l *entryLimiter) allow(address string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.byIP[address]
	if lim == nil {
		if len(l.byIP) >= entryMaxKeys {
			// Forget everyone rather than grow without bound: at worst an
			// address gets a fresh burst.
			l.byIP = map[string]*rate.Limiter{}
		}
		lim = rate.NewLimiter(rate.Every(entryEvery), entryBurst)
		l.byIP[address] = lim
	}
	return lim.Allow()
}
