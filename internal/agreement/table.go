package agreement

import (
	"bytes"
	"fmt"
	"slices"
)

// Table holds the ratings of one file, with unit, coder and value strings
// interned and each unit's rows kept as a profile shared by every unit
// with the same rows (see profileSet), so that a file of millions of rows
// costs a few integers per unit.
type Table struct {
	Name   string   // the file name given to ReadRatings, used in messages
	Units  []string // unit ids in order of first appearance
	Coders []string // coder ids in order of first appearance

	values    []string   // distinct non-empty values in order of first appearance
	valueLine []int32    // the line where each value first appears
	rated     int        // rows with a non-empty value
	profiles  profileSet // the units' distinct profiles
	profile   []int32    // the profile of each unit
}

// Ratings returns the number of rows with a value.
func (t *Table) Ratings() int { return t.rated }

// ratingsReader builds a Table from the rows of a file, in file order.
//
// Files are ordinarily grouped by unit (the rows of a unit are
// consecutive), so rows are gathered into the current group, and the unit
// is looked up only when its group ends: a group of a new unit becomes its
// profile, checked for a coder rating the unit twice. Rows of a unit met
// again after other units (a file not grouped by unit) are set aside and
// merged into the unit's profile at the end, where duplicates across its
// groups are found.
type ratingsReader struct {
	t                     *Table
	units, coders, values *interner

	unit  []byte // the current group's unit
	line  int32  // the line of its first row
	group []profileRow
	// prev is the group before: the next group usually lists its coders
	// in the same order, so its coder on the same row is tried first.
	prev []profileRow

	// The profile and the first line of each unit, in blocks: a growing
	// slice of a million would be copied a dozen times.
	profile  [][]int32
	unitLine [][]int32
	extra    [][]extraRow // rows of units seen in an earlier group, in file order
	nExtra   int
	seenIn   []int32 // per coder: 1 + the group that it last rated in
	rowAt    []int32 // per coder: its row in that group
	groups   int32
	// dup is the first row, in file order, that repeats an earlier
	// (unit, coder); once found, rows are no longer kept.
	dup *duplicate
}

// extraRow is a row of a unit that an earlier group already had.
type extraRow struct {
	unit, coder, value, line int32
}

type duplicate struct {
	unit        string
	coder       int32
	first, line int32
}

func newRatingsReader(name string) *ratingsReader {
	return &ratingsReader{
		t:     &Table{Name: name, profiles: newProfileSet()},
		units: newAscendingInterner(), coders: newInterner(), values: newInterner(),
	}
}

// add takes the row on line, with its fields trimmed and checked.
func (rd *ratingsReader) add(unit, coder, value []byte, line int32) {
	if len(rd.group) == 0 || !bytes.Equal(unit, rd.unit) {
		rd.endGroup()
		rd.unit = append(rd.unit[:0], unit...)
		rd.line = line
	}
	guess := int32(-1)
	if i := len(rd.group); i < len(rd.prev) {
		guess = rd.prev[i].coder
	}
	r := profileRow{coder: rd.coders.idGuess(coder, guess), value: -1, offset: line - rd.line}
	if len(value) > 0 {
		n := rd.values.n
		r.value = rd.values.idBytes(value)
		if int(r.value) == n {
			rd.t.valueLine = append(rd.t.valueLine, line)
		}
		rd.t.rated++
	}
	rd.group = append(rd.group, r)
}

// endGroup files the current group under its unit.
func (rd *ratingsReader) endGroup() {
	if len(rd.group) == 0 {
		return
	}
	defer func() { rd.group, rd.prev = rd.prev[:0], rd.group }()
	u, isNew := rd.units.idBytesNew(rd.unit)
	if !isNew {
		for _, r := range rd.group {
			rd.extra = appendBlock(rd.extra, extraRow{unit: u, coder: r.coder, value: r.value, line: rd.line + r.offset})
		}
		rd.nExtra += len(rd.group)
		return
	}
	for len(rd.seenIn) < rd.coders.n {
		rd.seenIn = append(rd.seenIn, 0)
		rd.rowAt = append(rd.rowAt, 0)
	}
	rd.groups++
	for i, r := range rd.group {
		if rd.seenIn[r.coder] == rd.groups {
			first := rd.group[rd.rowAt[r.coder]]
			rd.dup = &duplicate{unit: string(rd.unit), coder: r.coder, first: rd.line + first.offset, line: rd.line + r.offset}
			return
		}
		rd.seenIn[r.coder], rd.rowAt[r.coder] = rd.groups, int32(i)
	}
	rd.profile = appendBlock(rd.profile, rd.t.profiles.id(rd.group))
	rd.unitLine = appendBlock(rd.unitLine, rd.line)
}

// table ends the last group, merges the rows set aside and returns the
// table, or the first duplicate row.
func (rd *ratingsReader) table() (*Table, error) {
	t := rd.t
	if rd.dup == nil {
		rd.endGroup()
	}
	t.Units, t.Coders, t.values = rd.units.strings(), rd.coders.strings(), rd.values.strings()
	t.profile = slices.Concat(rd.profile...)
	rd.profile = nil
	if rd.nExtra > 0 {
		rd.mergeExtra()
	}
	if d := rd.dup; d != nil {
		return nil, fmt.Errorf("%s:%d: duplicate rating of unit %q by coder %q (first at line %d)",
			t.Name, d.line, d.unit, t.Coders[d.coder], d.first)
	}
	return t, nil
}

// mergeExtra merges the rows set aside into their units' profiles, after
// finding the first duplicate among each such unit's rows, and keeps the
// earlier of it and any found before. The extra rows all come before any
// duplicate already found, since rows are no longer kept after one.
func (rd *ratingsReader) mergeExtra() {
	t := rd.t
	units := len(t.profile)
	// The extra rows by unit, in file order within each unit: their
	// indexes sorted by counting.
	extra := func(i int32) extraRow { return rd.extra[i/blockSize][i%blockSize] }
	from := make([]int32, units+1)
	for _, blk := range rd.extra {
		for _, e := range blk {
			from[e.unit+1]++
		}
	}
	for u := range units {
		from[u+1] += from[u]
	}
	byUnit := make([]int32, rd.nExtra)
	next := slices.Clone(from[:units])
	for i := range int32(rd.nExtra) {
		u := extra(i).unit
		byUnit[next[u]] = i
		next[u]++
	}
	next = nil
	seenIn := make([]int32, len(t.Coders))    // per coder: 1 + the unit it last rated
	firstLine := make([]int32, len(t.Coders)) // per coder: the line of its first row in that unit
	var rows []profileRow
	var merged []int32 // the new profile of each unit with extra rows, in unit order
	for u := range units {
		if from[u] == from[u+1] {
			continue
		}
		base := rd.unitLine[u/blockSize][u%blockSize]
		rows = append(rows[:0], t.profiles.at(t.profile[u])...)
		for _, i := range byUnit[from[u]:from[u+1]] {
			e := extra(i)
			rows = append(rows, profileRow{coder: e.coder, value: e.value, offset: e.line - base})
		}
		for _, r := range rows {
			line := base + r.offset
			if seenIn[r.coder] == int32(u)+1 {
				if rd.dup == nil || line < rd.dup.line {
					rd.dup = &duplicate{unit: t.Units[u], coder: r.coder, first: firstLine[r.coder], line: line}
				}
				break
			}
			seenIn[r.coder], firstLine[r.coder] = int32(u)+1, line
		}
		if rd.dup != nil {
			continue
		}
		// The lines are no longer needed: without them, units with the
		// same ratings share a profile however their rows were spread.
		for i := range rows {
			rows[i].offset = 0
		}
		merged = append(merged, t.profiles.id(rows))
	}
	if rd.dup != nil {
		return
	}
	for u := range units {
		if from[u+1] > from[u] {
			t.profile[u], merged = merged[0], merged[1:]
		}
	}
}
