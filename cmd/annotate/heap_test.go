package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// readHeap raises the collector's target and sets a memory limit of twice
// the size hint while the report data is read, and restores both after;
// with GOGC or GOMEMLIMIT in the environment it leaves the settings
// alone.
func TestReadHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	const hint = 300 << 20
	for _, env := range []struct{ gogc, limit string }{{"", ""}, {"50", ""}, {"", "1GiB"}} {
		t.Setenv("GOGC", env.gogc)
		t.Setenv("GOMEMLIMIT", env.limit)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		restore := readHeap(hint)
		during, duringLimit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
		debug.SetGCPercent(during)
		restore()
		after, afterLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
		want, wantLimit := 200, int64(2*hint)
		if env.gogc != "" || env.limit != "" {
			want, wantLimit = 100, math.MaxInt64
		}
		if during != want || after != 100 {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: %d while reading (want %d), %d after (want 100)", env.gogc, env.limit, during, want, after)
		}
		if duringLimit != wantLimit || afterLimit != math.MaxInt64 {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: limit %d while reading (want %d), %d after (want none)", env.gogc, env.limit, duringLimit, wantLimit, afterLimit)
		}
	}
}

// A small hint still allows 128 MiB while the data is read.
func TestReadHeapFloor(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	restore := readHeap(1 << 20)
	defer restore()
	if got := debug.SetMemoryLimit(-1); got != 128<<20 {
		t.Errorf("limit %d while reading, want %d", got, 128<<20)
	}
}
