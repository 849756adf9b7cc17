package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Bounds on study entries from one address (an IPv6 /64 counts as one, see
// clientKey): a burst of entryBurst, then one every entryEvery. A study's
// link is public; this keeps one address from trying ids in bulk while a
// lab's shared address still lets a room of participants in.
const (
	entryBurst   = 30
	entryEvery   = 2 * time.Second
	entryMaxKeys = 50000
)

// entryLimiter rate-limits study entries by client address. It remembers
// at most maxKeys addresses; when full it forgets those whose budget is
// whole again (they carry nothing), and if none is, new addresses share
// one overflow budget, so a flood of addresses can neither grow the table
// nor wipe the limits of the addresses already in it.
type entryLimiter struct {
	mu       sync.Mutex
	now      func() time.Time
	maxKeys  int
	byIP     map[string]*rate.Limiter
	overflow *rate.Limiter
}

func newEntryLimiter(now func() time.Time, maxKeys int) *entryLimiter {
	if now == nil {
		now = time.Now
	}
	return &entryLimiter{now: now, maxKeys: maxKeys, byIP: map[string]*rate.Limiter{}, overflow: newEntryBudget()}
}

func newEntryBudget() *rate.Limiter { return rate.NewLimiter(rate.Every(entryEvery), entryBurst) }

// allow says whether an entry from address may go on now.
func (l *entryLimiter) allow(address string) bool {
	key := clientKey(address)
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	lim := l.byIP[key]
	if lim == nil {
		if len(l.byIP) >= l.maxKeys {
			for k, other := range l.byIP {
				if other.TokensAt(now) >= entryBurst {
					delete(l.byIP, k)
				}
			}
		}
		if len(l.byIP) >= l.maxKeys {
			return l.overflow.AllowN(now, 1)
		}
		lim = newEntryBudget()
		l.byIP[key] = lim
	}
	return lim.AllowN(now, 1)
}
