package agreement

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestInterner(t *testing.T) {
	tests := []struct {
		name string
		n    int
		hash func(string) uint64 // nil: the default
	}{
		{"few", 10, nil},
		{"many", 200_000, nil},
		// Every string gets the same tag, so only string comparison tells
		// them apart.
		{"all-collide", 2_000, func(string) uint64 { return 42 << 32 }},
		// Few distinct tags: long probe runs that wrap around the table.
		{"some-collide", 5_000, func(s string) uint64 { return uint64(len(s)) << 60 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := newInterner()
			if tt.hash != nil {
				in.hash = tt.hash
			}
			rng := rand.New(rand.NewPCG(1, 1))
			keys := make([]string, tt.n)
			// Short strings (kept in the table's slots), long ones (kept
			// in the store) and ones ending in NUL bytes, which a slot's
			// zero padding must not confuse with the shorter ones.
			for i := range keys {
				keys[i] = "k" + strconv.Itoa(i)
				switch i % 6 {
				case 1:
					keys[i] = "a-longer-key-" + strconv.Itoa(i)
				case 2:
					keys[i] += "\x00"
				case 3:
					keys[i] = "\x00" + keys[i]
				case 4:
					keys[i] = "k" + strconv.Itoa(i-2) // key i-2 without its NUL
				}
			}
			for i, k := range keys {
				if got := in.id(k); got != int32(i) {
					t.Fatalf("first id(%q) = %d, want %d", k, got, i)
				}
			}
			for range 3 * tt.n {
				i := rng.IntN(tt.n)
				if got := in.id(keys[i]); got != int32(i) {
					t.Fatalf("id(%q) = %d, want %d", keys[i], got, i)
				}
			}
			if in.n != tt.n {
				t.Errorf("%d strings interned, want %d", in.n, tt.n)
			}
			list := in.strings()
			for i, k := range keys {
				if list[i] != k {
					t.Fatalf("strings()[%d] = %q, want %q", i, list[i], k)
				}
			}
		})
	}
}

// inlineKeyBytes reads a field's bytes as inlineKey does, whatever room
// its array has past it, and ignores the bytes after it.
func TestInlineKeyBytes(t *testing.T) {
	buf := []byte("abcdefghijklmnop")
	for start := range 9 {
		for n := 0; n <= maxInline && start+n <= len(buf); n++ {
			for _, end := range []int{start + n, len(buf)} { // the array ends at the field, or runs on
				b := buf[start : start+n : max(end, start+n)]
				if got, want := inlineKeyBytes(b), inlineKey(string(b)); got != want {
					t.Fatalf("%q (cap %d): %#x, want %#x", b, cap(b), got, want)
				}
			}
		}
	}
}
