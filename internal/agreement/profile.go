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
// hashing the rows' integers directly: no key is built per lookup. Where
// profiles are not shared (continuous values make every unit's its own),
// looking them up only costs time: after lookupProfiles lookups that
// mostly found nothing, profiles are just added, and may then repeat.
//
// The rows are kept in chunks, a profile never straddling two, rather
// than in one growing slice, which a file of millions of rows would copy
// a dozen times.
type profileSet struct {
	chunks [][]profileRow
	refs   [][]profileRef // where each profile is, in blocks
	n      int
	slots  []int32 // id+1 of the profile hashed there, 0 when empty; nil once profiles are just added
	looked int     // lookups made
}

// profileRef is where a profile's rows are in the chunks.
type profileRef struct {
	chunk, off, len uint32
}

// lookupProfiles is the number of lookups after which profiles are just
// added if most of them were new.
const lookupProfiles = 1 << 16

func newProfileSet() profileSet {
	return profileSet{slots: make([]int32, 64)}
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
func (ps *profileSet) id(rows []profileRow) int32 { return ps.idHash(rows, hashRows(rows)) }

// idHash is id given hashRows(rows).
func (ps *profileSet) idHash(rows []profileRow, h uint64) int32 {
	if ps.slots == nil {
		return ps.add(rows)
	}
	if ps.looked++; ps.looked == lookupProfiles && 2*ps.n > ps.looked {
		ps.slots = nil
		return ps.add(rows)
	}
	mask := uint64(len(ps.slots) - 1)
	i := h & mask
	for ; ps.slots[i] != 0; i = (i + 1) & mask {
		if id := ps.slots[i] - 1; slices.Equal(ps.at(id), rows) {
			return id
		}
	}
	id := ps.add(rows)
	ps.slots[i] = id + 1
	if 2*ps.n > len(ps.slots) {
		ps.slots = make([]int32, 2*len(ps.slots))
		mask = uint64(len(ps.slots) - 1)
		for k := range ps.n {
			j := hashRows(ps.at(int32(k))) & mask
			for ps.slots[j] != 0 {
				j = (j + 1) & mask
			}
			ps.slots[j] = int32(k) + 1
		}
	}
	return id
}

// profileChunk is the rows a chunk holds, unless a profile is longer.
const profileChunk = 1 << 14

// add stores a copy of rows as a new profile.
func (ps *profileSet) add(rows []profileRow) int32 {
	last := len(ps.chunks) - 1
	if last < 0 || len(rows) > cap(ps.chunks[last])-len(ps.chunks[last]) {
		ps.chunks = append(ps.chunks, make([]profileRow, 0, max(profileChunk, len(rows))))
		last++
	}
	ps.refs = appendBlock(ps.refs, profileRef{chunk: uint32(last), off: uint32(len(ps.chunks[last])), len: uint32(len(rows))})
	ps.chunks[last] = append(ps.chunks[last], rows...)
	ps.n++
	return int32(ps.n - 1)
}

func (ps *profileSet) len() int { return ps.n }

// at returns profile k's rows, sharing storage with ps.
func (ps *profileSet) at(k int32) []profileRow {
	r := ps.refs[k/blockSize][k%blockSize]
	return ps.chunks[r.chunk][r.off : r.off+r.len : r.off+r.len]
}
