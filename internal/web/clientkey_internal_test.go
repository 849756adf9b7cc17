package web

import (
	"fmt"
	"testing"
	"time"
)

func TestClientKeyCountsAnIPv6SlashSixtyFourAsOne(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
	} {
		if got := clientKey(c.in); got != c.want {
			t.Errorf("clientKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// One host given a /64 could enter a study from a new address every
// time and never meet the limit.
func TestEntryLimitCountsAnIPv6NetworkOnce(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newEntryLimiter(func() time.Time { return now }, entryMaxKeys)
	for i := range entryBurst {
		if !l.allow(fmt.Sprintf("2001:db8:0:7::%x", i+1)) {
			t.Fatalf("entry %d of the burst refused", i+1)
		}
	}
	if l.allow("2001:db8:0:7::ffff") {
		t.Fatal("a new address in the same /64 drew a fresh budget")
	}
	if !l.allow("2001:db8:0:8::1") {
		t.Fatal("another /64 was refused")
	}
}

// A table full of addresses used to be cleared, giving an exhausted
// address a fresh burst.
func TestEntryLimitKeepsAnExhaustedAddressWhenFull(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newEntryLimiter(func() time.Time { return now }, 3)
	for l.allow("192.0.2.1") {
	}
	for i := range 10 {
		l.allow(fmt.Sprintf("198.51.100.%d", i+1))
	}
	if l.allow("192.0.2.1") {
		t.Fatal("an exhausted address got a fresh burst once the table filled")
	}
	if len(l.byIP) > 3 {
		t.Fatalf("%d addresses kept, limit 3", len(l.byIP))
	}
	// Budgets that are whole again carry nothing and make room.
	now = now.Add(entryEvery * entryBurst)
	if !l.allow("203.0.113.9") {
		t.Fatal("a new address was refused once the others' budgets were whole")
	}
	if _, ok := l.byIP["203.0.113.9"]; !ok {
		t.Fatal("the new address did not get its own budget")
	}
}

func TestLoginThrottleCountsAnIPv6NetworkOnce(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	th := newThrottle(func() time.Time { return now }, 1000)
	for i := range maxFailsPerPair {
		th.fail("ana", fmt.Sprintf("2001:db8:0:7::%x", i+1))
	}
	if b, _ := th.blocked("ana", "2001:db8:0:7::beef"); !b {
		t.Fatal("a new address in the same /64 escaped the account-and-address limit")
	}
}
