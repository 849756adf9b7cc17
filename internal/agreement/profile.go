package agreement

import "slices"

// profileRow is one row of a unit: which coder gave which value (an index
// into the table's values, −1 for an empty one), on which line counted
// from the line of the unit's first row. The line serves to report
// duplicates while the file is read; profiles merged at the end of
// reading keep none (0).
type profileRow struct {
	coder, value, offset int32
}

// profileSet keeps each distinct profile once. A unit's profile is its
// rows in file order; files hold one row per unit and coder with values
// from a rating scale, and rows on consecutive lines, so a million units
// ordinarily have a few hundred profiles between them: the table then
// costs an int32 per unit rather than its rows, and the statistics work
// per profile.
//
// Profiles are found by an open-addressing hash table of their ids,
// hashing the rows' integers directly: no key is built per lookup.
type profileSet struct {
	rows  []profileRow
	start []int   // profile k is rows[start[k]:start[k+1]]
	slots []int32 // id+1 of the profile hashed there, 0 when empty
}

func newProfileSet() profileSet {
	return profileSet{start: []int{0}, slots: make([]int32, 64)}
}

func hashRows(rows []profileRow) uint64 {
	h := uint64(len(rows))
	for _, r := range rows {
		h = (h ^ uint64(uint32(r.coder))<<32 ^ uint64(uint32(r.value))) * 0x9e3779b97f4a7c15
		h = (h ^ uint64(uint32(r.offset))) * 0x9e3779b97f4a7c15
	}
	return h ^ h>>29
}

// id returns the id of the profile made of rows, adding it if new.
func (ps *profileSet) id(rows []profileRow) int32 {
	mask := uint64(len(ps.slots) - 1)
	i := hashRows(rows) & mask
	for ; ps.slots[i] != 0; i = (i + 1) & mask {
		if id := ps.slots[i] - 1; slices.Equal(ps.at(id), rows) {
			return id
		}
	}
	id := int32(ps.len())
	ps.rows = append(ps.rows, rows...)
	ps.start = append(ps.start, len(ps.rows))
	ps.slots[i] = id + 1
	if 2*ps.len() > len(ps.slots) {
		ps.slots = make([]int32, 2*len(ps.slots))
		mask = uint64(len(ps.slots) - 1)
		for k := range ps.len() {
			j := hashRows(ps.at(int32(k))) & mask
			for ps.slots[j] != 0 {
				j = (j + 1) & mask
			}
			ps.slots[j] = int32(k) + 1
		}
	}
	return id
}

func (ps *profileSet) len() int { return len(ps.start) - 1 }

// at returns profile k's rows, sharing storage with ps.
func (ps *profileSet) at(k int32) []profileRow { return ps.rows[ps.start[k]:ps.start[k+1]] }
