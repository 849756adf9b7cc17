package tasks

import "slices"

// idSet is a set of row ids: a slotTable of them (a table by id when they
// lie close together, as a project's assignments and summaries do, else a
// map) and the ids in ascending order, which the queries that name them
// list. The report looks a kept assignment or summary up for every row it
// reads of summary labels, sentences, links and key facts: with maps, the
// lookups of the 300,000 summary labels of the 1.5M-label project took 60
// ms of one core.
type idSet struct {
	slots *slotTable // nil when empty
	ids   []int64    // the ids, ascending and distinct
}

// newIDSet makes the set of ids (in any order, repeats allowed).
func newIDSet(ids []int64) *idSet {
	s := &idSet{ids: slices.Compact(slices.Sorted(slices.Values(ids)))}
	if len(s.ids) > 0 {
		s.slots = newSlotTable(s.ids)
	}
	return s
}

// has reports whether id is in the set.
func (s *idSet) has(id int64) bool { return s.slots != nil && s.slots.of(id) >= 0 }

// len returns the number of ids.
func (s *idSet) len() int { return len(s.ids) }

// sorted returns the ids in ascending order; do not modify.
func (s *idSet) sorted() []int64 { return s.ids }
