package tasks

import "slices"

// idSet is a set of row ids. When the ids are dense, as a project's
// assignments and summaries are (ids given in turn as rows are written),
// it is a bitmap over their span, which a lookup reads without hashing;
// else a map. The report looks a kept assignment or summary up for every
// row it reads of summary labels, sentences, links and key facts: with
// maps, the lookups of the 300,000 summary labels of the 1.5M-label
// project took 60 ms of one core.
type idSet struct {
	lo   int64
	bits []uint64       // bit id−lo, when dense
	m    map[int64]bool // when sparse
	ids  []int64        // the ids, ascending and distinct
}

// newIDSet makes the set of ids (in any order, repeats allowed).
func newIDSet(ids []int64) *idSet {
	s := &idSet{ids: slices.Compact(slices.Sorted(slices.Values(ids)))}
	if len(s.ids) == 0 {
		return s
	}
	lo, hi := s.ids[0], s.ids[len(s.ids)-1]
	if span := uint64(hi - lo); span > 64*uint64(len(s.ids))+1<<16 {
		s.m = make(map[int64]bool, len(s.ids))
		for _, id := range s.ids {
			s.m[id] = true
		}
		return s
	}
	s.lo, s.bits = lo, make([]uint64, (hi-lo)/64+1)
	for _, id := range s.ids {
		d := id - lo
		s.bits[d/64] |= 1 << (d % 64)
	}
	return s
}

// has reports whether id is in the set.
func (s *idSet) has(id int64) bool {
	if s.m != nil {
		return s.m[id]
	}
	d := uint64(id - s.lo)
	return id >= s.lo && d/64 < uint64(len(s.bits)) && s.bits[d/64]&(1<<(d%64)) != 0
}

// len returns the number of ids.
func (s *idSet) len() int { return len(s.ids) }

// sorted returns the ids in ascending order; do not modify.
func (s *idSet) sorted() []int64 { return s.ids }
