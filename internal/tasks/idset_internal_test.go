package tasks

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// An idSet holds exactly its ids, dense (a table by id) or sparse (a map),
// and lists them in order without repeats.
func TestIDSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		name   string
		n      int
		span   int64
		sparse bool
	}{{"empty", 0, 1, false}, {"dense", 5000, 6000, false}, {"one", 1, 1, false}, {"sparse", 300, 1 << 40, true}} {
		want := map[int64]bool{}
		var ids []int64
		for range c.n {
			id := 1000 + rng.Int64N(c.span)
			ids = append(ids, id, id) // repeats are allowed
			want[id] = true
		}
		s := newIDSet(ids)
		if sparse := s.slots != nil && s.slots.sparse != nil; sparse != c.sparse {
			t.Errorf("%s: sparse %v, want %v", c.name, sparse, c.sparse)
		}
		if s.len() != len(want) || !slices.IsSorted(s.sorted()) {
			t.Errorf("%s: %d ids (sorted %v), want %d", c.name, s.len(), slices.IsSorted(s.sorted()), len(want))
		}
		probes := []int64{-1, 0, 999, 1000 + c.span, 1 << 62}
		for id := range want {
			probes = append(probes, id, id-1, id+1, id+64)
		}
		for _, id := range probes {
			if s.has(id) != want[id] {
				t.Fatalf("%s: has(%d) = %v, want %v", c.name, id, s.has(id), want[id])
			}
		}
	}
}
