package main

import (
	"runtime/debug"
	"testing"
)

// readHeap raises the collector's target while the report data is read
// and restores it after; with GOGC or GOMEMLIMIT in the environment it
// leaves the settings alone.
func TestReadHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, env := range []struct{ gogc, limit string }{{"", ""}, {"50", ""}, {"", "1GiB"}} {
		t.Setenv("GOGC", env.gogc)
		t.Setenv("GOMEMLIMIT", env.limit)
		debug.SetGCPercent(100)
		restore := readHeap()
		during := debug.SetGCPercent(-1)
		debug.SetGCPercent(during)
		restore()
		after := debug.SetGCPercent(100)
		want := 200
		if env.gogc != "" || env.limit != "" {
			want = 100
		}
		if during != want || after != 100 {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: %d while reading (want %d), %d after (want 100)", env.gogc, env.limit, during, want, after)
		}
	}
}
