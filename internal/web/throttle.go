package web

import (
	"container/list"
	"sync"
	"time"
)

// Login throttling limits failed attempts per account and per client
// address within a sliding window, which stops password guessing without
// locking out a whole office behind one address too early. The address
// is checked before the password is hashed, so one address cannot spend
// more than its budget of password checks.
const (
	throttleWindow     = 15 * time.Minute
	maxFailsPerAccount = 5
	maxFailsPerAddress = 30
	throttleMaxKeys    = 100000
)

type throttle struct {
	mu       sync.Mutex
	now      func() time.Time
	accounts *failLog
	address  *failLog
}

func newThrottle(now func() time.Time, maxKeys int) *throttle {
	return &throttle{now: now, accounts: newFailLog(maxKeys), address: newFailLog(maxKeys)}
}

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

// blocked reports whether the address or the account is over its limit,
// and when the oldest counted failure leaves the window.
func (t *throttle) blocked(account, address string) (bool, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for _, k := range []struct {
		log   *failLog
		key   string
		limit int
	}{{t.address, address, maxFailsPerAddress}, {t.accounts, account, maxFailsPerAccount}} {
		f := k.log.recent(k.key, now)
		if len(f) >= k.limit {
			return true, f[0].Add(throttleWindow).Sub(now)
		}
	}
	return false, 0
}

func (t *throttle) fail(account, address string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.accounts.add(account, now)
	t.address.add(address, now)
}

func (t *throttle) succeed(account string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.accounts.byKey[account]; ok {
		t.accounts.order.Remove(el)
		delete(t.accounts.byKey, account)
	}
}
