package agreement

import "encoding/binary"

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
type profileSet struct {
	rows  []profileRow
	start []int // profile k is rows[start[k]:start[k+1]]
	ids   map[string]int32
	key   []byte
}

func newProfileSet() profileSet {
	return profileSet{start: []int{0}, ids: map[string]int32{}}
}

// id returns the id of the profile made of rows, adding it if new.
func (ps *profileSet) id(rows []profileRow) int32 {
	key := ps.key[:0]
	for _, r := range rows {
		key = binary.LittleEndian.AppendUint32(key, uint32(r.coder))
		key = binary.LittleEndian.AppendUint32(key, uint32(r.value))
		key = binary.LittleEndian.AppendUint32(key, uint32(r.offset))
	}
	ps.key = key
	if id, ok := ps.ids[string(key)]; ok {
		return id
	}
	id := int32(ps.len())
	ps.ids[string(key)] = id
	ps.rows = append(ps.rows, rows...)
	ps.start = append(ps.start, len(ps.rows))
	return id
}

func (ps *profileSet) len() int { return len(ps.start) - 1 }

// at returns profile k's rows, sharing storage with ps.
func (ps *profileSet) at(k int32) []profileRow { return ps.rows[ps.start[k]:ps.start[k+1]] }
