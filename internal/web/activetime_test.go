package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// stepClock is a clock a test moves by hand.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestActiveTimeAsPeopleWork follows the page's reports on a clock moved
// by hand: 12 s labelled and then submitted records 12 s, sent with the
// submit (which is refused here, for missing labels, and keeps the time);
// 49 s with a report at 30 s records 49 s; and no claim passes the wall
// time since the page was first opened or last reported.
func TestActiveTimeAsPeopleWork(t *testing.T) {
	w := newWorkFixture(t)
	clock := &stepClock{t: time.Now()}
	w.store.SetClock(clock.now)
	b := w.browser()
	b.login("ann", testPassword)
	recorded := func(id int64) int {
		t.Helper()
		a, err := w.store.AssignmentByID(w.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return a.ActiveSeconds
	}
	submit := func(id int64, secs int) {
		t.Helper()
		path := fmt.Sprintf("/a/%d", id)
		p := b.post(path+"/submit", url.Values{"_csrf": {b.csrf(path)}, "active_seconds": {strconv.Itoa(secs)}})
		if p.status != http.StatusSeeOther {
			t.Fatalf("submit: %d", p.status)
		}
	}
	report := func(id int64, secs int) {
		t.Helper()
		path := fmt.Sprintf("/a/%d", id)
		if p := b.post(path+"/time", url.Values{"_csrf": {b.csrf(path)}, "seconds": {strconv.Itoa(secs)}}); p.status != http.StatusNoContent {
			t.Fatalf("report: %d", p.status)
		}
	}

	first, second := w.assign["ann"][0].ID, w.assign["ann"][1].ID
	b.get(fmt.Sprintf("/a/%d", first)) // the page opens
	clock.advance(12 * time.Second)
	submit(first, 12)
	if got := recorded(first); got != 12 {
		t.Errorf("12 s sent with the submit: recorded %d s", got)
	}

	b.get(fmt.Sprintf("/a/%d", second))
	clock.advance(30 * time.Second)
	report(second, 30)
	clock.advance(19 * time.Second)
	submit(second, 19)
	if got := recorded(second); got != 49 {
		t.Errorf("49 s with a report at 30 s: recorded %d s", got)
	}

	b = w.browser()
	b.login("bob", testPassword)
	third := w.assign["bob"][0].ID
	b.get(fmt.Sprintf("/a/%d", third))
	clock.advance(5 * time.Second)
	submit(third, 500)
	if got := recorded(third); got != 5 {
		t.Errorf("a claim of 500 s 5 s after the page opened: recorded %d s", got)
	}
}
