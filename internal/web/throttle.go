package web

import (
	"container/list"
	"slices"
	"sync"
	"time"
)

// Login throttling limits failed password checks (logins, and the current
// password asked for a password change) within a sliding window, counting
// an IPv6 /64 as one address (see clientKey):
//   - one account from one address: 5, after which that address waits;
//   - any accounts from one address: 30, which stops guessing across names
//     without locking out a whole office behind one address too early;
//   - one account from everywhere: 50, after which only addresses the
//     account has logged in from before get in, so guessing spread over
//     many addresses stops while the owner still gets in from home.
//
// A stranger who fails five times for someone else's name locks out only
// their own address, never the owner. Limits are checked before the
// password is hashed, so no address spends more than its budget of
// password checks.
const (
	throttleWindow     = 15 * time.Minute
	maxFailsPerPair    = 5
	maxFailsPerAddress = 30
	maxFailsPerAccount = 50
	maxKnownAddresses  = 20 // per account, the most recent kept
	throttleMaxKeys    = 100000
)

type throttle struct {
	mu       sync.Mutex
	now      func() time.Time
	pairs    *failLog
	accounts *failLog
	address  *failLog
	known    map[string][]string // account → addresses it logged in from, newest last
	maxKeys  int
}

func newThrottle(now func() time.Time, maxKeys int) *throttle {
	return &throttle{now: now, pairs: newFailLog(maxKeys), accounts: newFailLog(maxKeys), address: newFailLog(maxKeys),
		known: map[string][]string{}, maxKeys: maxKeys}
}

func pairKey(account, address string) string { return account + "\x00" + address }

// failLog keeps recent failures per key, at most maxKeys keys: when full,
// the key whose last failure is oldest is forgotten first, so a flood of
// made-up names cannot wipe the locks that matter.
type failLog struct {
	maxKeys int
	order   *list.List // of *failEntry, most recent failure first
	byKey   map[string]*list.Element
}

type failEntry struct {
	key   string
	times []time.Time
}

func newFailLog(maxKeys int) *failLog {
	return &failLog{maxKeys: maxKeys, order: list.New(), byKey: map[string]*list.Element{}}
}

// recent drops failures older than the window and returns the rest.
func (l *failLog) recent(key string, now time.Time) []time.Time {
	el, ok := l.byKey[key]
	if !ok {
		return nil
	}
	e := el.Value.(*failEntry)
	cut := now.Add(-throttleWindow)
	i := 0
	for i < len(e.times) && e.times[i].Before(cut) {
		i++
	}
	e.times = e.times[i:]
	if len(e.times) == 0 {
		l.order.Remove(el)
		delete(l.byKey, key)
	}
	return e.times
}

func (l *failLog) add(key string, now time.Time) {
	if el, ok := l.byKey[key]; ok {
		e := el.Value.(*failEntry)
		e.times = append(e.times, now)
		l.order.MoveToFront(el)
		return
	}
	l.byKey[key] = l.order.PushFront(&failEntry{key: key, times: []time.Time{now}})
	for l.order.Len() > l.maxKeys {
		old := l.order.Back()
		l.order.Remove(old)
		delete(l.byKey, old.Value.(*failEntry).key)
	}
}

// blocked reports whether a password check for the account from the
// address must wait, and for how long.
func (t *throttle) blocked(account, address string) (bool, time.Duration) {
	address = clientKey(address)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for _, k := range []struct {
		log   *failLog
		key   string
		limit int
	}{{t.address, address, maxFailsPerAddress}, {t.pairs, pairKey(account, address), maxFailsPerPair}} {
		f := k.log.recent(k.key, now)
		if len(f) >= k.limit {
			return true, f[0].Add(throttleWindow).Sub(now)
		}
	}
	if f := t.accounts.recent(account, now); len(f) >= maxFailsPerAccount && !slices.Contains(t.known[account], address) {
		return true, f[0].Add(throttleWindow).Sub(now)
	}
	return false, 0
}

func (t *throttle) fail(account, address string) {
	address = clientKey(address)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.pairs.add(pairKey(account, address), now)
	t.accounts.add(account, now)
	t.address.add(address, now)
}

// succeed forgets the account's failures from the address and remembers
// the address as one the account logs in from.
func (t *throttle) succeed(account, address string) {
	address = clientKey(address)
	t.mu.Lock()
	defer t.mu.Unlock()
	key := pairKey(account, address)
	if el, ok := t.pairs.byKey[key]; ok {
		t.pairs.order.Remove(el)
		delete(t.pairs.byKey, key)
	}
	addrs := slices.DeleteFunc(t.known[account], func(a string) bool { return a == address })
	addrs = append(addrs, address)
	if len(addrs) > maxKnownAddresses {
		addrs = addrs[len(addrs)-maxKnownAddresses:]
	}
	if _, ok := t.known[account]; !ok && len(t.known) >= t.maxKeys {
		clear(t.known) // a flood of accounts: start over rather than grow
	}
	t.known[account] = addrs
}
