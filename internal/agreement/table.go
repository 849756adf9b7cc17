package agreement

import (
	"bytes"
	"fmt"
	"hash/maphash"
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
	// Meta holds the "# key: value" comments before the header (keys in
	// lower case), nil when there are none.
	Meta map[string]string

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
// consecutive), so rows are gathered into the current group, and each
// group is taken for a new unit when it ends: it becomes the unit's
// profile, checked for a coder rating the unit twice. Whether a unit came
// back in a later group is settled once, at the end (see firstNames),
// rather than by looking every group's unit up as it comes, which in a
// table of a million units costs a cache miss each; and when the groups'
// units come in ascending order, as exports usually number them, no unit
// can have come back and nothing is looked up at all. The rows of groups
// of units that came back are merged into the units' profiles at the end,
// where duplicates across a unit's groups are found.
//
// A file that is not grouped by unit (most groups a single row) would
// keep its units' names once per group that way; once that shows, units
// are looked up as their groups end, and a name is kept once per unit.
type ratingsReader struct {
	t              *Table
	coders, values *interner

	// units holds each group's unit until lookups begins, then each new
	// unit's: the names the groups' unit numbers in groupUnit refer to.
	units   *interner
	lookups bool
	// alias is, for each name stored before lookups began, the first name
	// equal to it (nil when they are distinct); the names added since are
	// all distinct.
	alias []int32
	// unsorted is whether a name was stored after they stopped coming in
	// ascending order, indexed whether they have been indexed.
	unsorted, indexed bool
	// pending holds the groups whose units are not yet looked up.
	pending pendingGroups
	rows    int // rows read so far
	// byUnit gathers each unit's rows once units are looked up.
	byUnit *unitRows
	// parts looks units up and gathers their rows instead of units and
	// byUnit once lookups are split between cores (see unitParts).
	parts *unitParts

	unit     []byte // the current group's unit
	lastUnit []byte // the unit of the group before
	line     int32  // the line of its first row
	group    []profileRow
	// prev is the group before: the next group usually lists its coders
	// in the same order, so its coder on the same row is tried first.
	prev []profileRow

	// The unit, profile and first line of each group.
	groupUnit    [][]int32
	groupProfile [][]int32
	groupLine    [][]int32
	groups       int32
	// ascending is whether every group's unit is greater than the one
	// before, so that no unit has two groups.
	ascending bool

	seenIn []int32 // per coder: 1 + the group that it last rated in
	rowAt  []int32 // per coder: its row in that group
	// dup is the first row, in file order, that repeats an earlier
	// (unit, coder) within a group; once found, rows are no longer kept.
	dup *duplicate
}

type duplicate struct {
	unit        string
	coder       int32
	first, line int32
}

func newRatingsReader(name string) *ratingsReader {
	return &ratingsReader{
		t:      &Table{Name: name, profiles: newProfileSet()},
		coders: newInterner(), values: newInterner(), units: newInterner(),
		ascending: true,
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
	rd.rows++
}

// flush gives the groups whose units wait in pending their units and
// their rows to the units.
func (rd *ratingsReader) flush() {
	rd.pending.file(rd.units, rd.byUnit, rd.alias, nil)
}

// firstName is the first name equal to name (see alias).
func (rd *ratingsReader) firstName(name int32) int32 {
	if int(name) < len(rd.alias) {
		return rd.alias[name]
	}
	return name
}

// addGroup adds the current group's rows to the unit of name u (a guess
// may give a name stored twice before the names were indexed).
func (rd *ratingsReader) addGroup(u int32) {
	u = rd.firstName(u)
	for _, r := range rd.group {
		r.offset += rd.line
		rd.byUnit.add(u, r)
	}
}

// gather switches to gathering rows by unit (see unitRows), moving the
// groups read so far into their units.
func (rd *ratingsReader) gather() {
	rd.byUnit = &unitRows{}
	at := func(blocks [][]int32, g int32) int32 { return blocks[g/blockSize][g%blockSize] }
	for g := range rd.groups {
		name := rd.firstName(at(rd.groupUnit, g))
		line := at(rd.groupLine, g)
		for _, r := range rd.t.profiles.at(at(rd.groupProfile, g)) {
			r.offset += line
			rd.byUnit.add(name, r)
		}
	}
	rd.groupUnit, rd.groupProfile, rd.groupLine = nil, nil, nil
	// The groups' profiles had lines; the units' are made at the end.
	rd.t.profiles = newProfileSet()
}

// index indexes the units' names stored so far, noting which are equal.
func (rd *ratingsReader) index() {
	rd.alias, rd.indexed = rd.units.indexAll(!rd.unsorted), true
}

// lookupAfter is the number of groups after which units are looked up if
// the groups average fewer than 1.25 rows: the file is then not grouped
// by unit (or has a single rating per unit). Eight thousand groups tell
// that as well as 65,536 did, and leave an eighth of the groups to be
// moved into the units afterwards: in a file of a million units in random
// order, that moving took about 15 ms more at 65,536.
const lookupAfter = 1 << 13

// endGroup files the current group as a new unit's.
func (rd *ratingsReader) endGroup() {
	if len(rd.group) == 0 {
		return
	}
	if !rd.lookups {
		if rd.units.n > 0 && rd.ascending && bytes.Compare(rd.unit, rd.lastUnit) <= 0 {
			rd.ascending = false
		}
		if !rd.ascending && rd.groups >= lookupAfter && 4*rd.rows < 5*int(rd.groups) {
			rd.lookups = true
			// Names stored while they came in ascending order are
			// distinct: they need no index until a guess fails (a file
			// grouped by coder may never need one).
			if rd.unsorted {
				rd.index()
			}
			rd.gather()
		}
	}
	if rd.lookups {
		rd.groups++
		if rd.parts != nil {
			rd.parts.add(rd.unit, rd.group, rd.line)
		} else if u, ok := rd.units.guessNext(rd.unit); ok {
			rd.addGroup(u)
		} else {
			if !rd.indexed {
				rd.index()
			}
			// Looked up in batches, unless the guesses mostly work; on
			// two cores where there are two, once guessing is given up.
			switch {
			case rd.units.nextScore > 0:
				rd.flush()
				rd.addGroup(rd.units.idBytes(rd.unit))
			case canSplitLookups():
				rd.split()
				rd.parts.add(rd.unit, rd.group, rd.line)
			default:
				rd.pending.add(rd.unit, rd.group, rd.line)
				if rd.pending.len() == batchSize {
					rd.flush()
				}
			}
		}
		rd.group, rd.prev = rd.prev[:0], rd.group
		rd.unit, rd.lastUnit = rd.lastUnit, rd.unit
		return
	}
	u := rd.units.stringStore.add(rd.unit)
	rd.unsorted = rd.unsorted || !rd.ascending
	g := rd.groups
	rd.groups++
	for len(rd.seenIn) < rd.coders.n {
		rd.seenIn = append(rd.seenIn, 0)
		rd.rowAt = append(rd.rowAt, 0)
	}
	for i, r := range rd.group {
		if rd.seenIn[r.coder] == g+1 {
			first := rd.group[rd.rowAt[r.coder]]
			rd.dup = &duplicate{unit: string(rd.unit), coder: r.coder, first: rd.line + first.offset, line: rd.line + r.offset}
			break
		}
		rd.seenIn[r.coder], rd.rowAt[r.coder] = g+1, int32(i)
	}
	// Kept even with a duplicate: an earlier group of the same unit may
	// hold an earlier one.
	rd.groupUnit = appendBlock(rd.groupUnit, u)
	rd.groupProfile = appendBlock(rd.groupProfile, rd.t.profiles.id(rd.group))
	rd.groupLine = appendBlock(rd.groupLine, rd.line)
	rd.group, rd.prev = rd.prev[:0], rd.group
	rd.unit, rd.lastUnit = rd.lastUnit, rd.unit
}

// table ends the last group, gives each unit its groups and returns the
// table, or the first duplicate row.
func (rd *ratingsReader) table() (*Table, error) {
	t := rd.t
	if rd.dup == nil {
		rd.endGroup()
	}
	if rd.parts != nil {
		t.Coders, t.values = rd.coders.strings(), rd.values.strings()
		rd.dup = rd.parts.units(t, len(t.Coders))
		rd.parts = nil
		return rd.result()
	}
	rd.flush()
	// Every unit has its id: the hash table (a third of the memory held
	// when a million units are looked up) can go before regroup
	// allocates.
	rd.units.slots, rd.units.few, rd.units.fewKeys = nil, nil, nil
	t.Coders, t.values = rd.coders.strings(), rd.values.strings()
	if rd.byUnit != nil {
		if d := rd.byUnit.units(t, &rd.units.stringStore, rd.alias, len(t.Coders)); d != nil {
			rd.dup = d
		}
		rd.byUnit = nil
		rd.units = nil
		return rd.result()
	}
	var first []int32
	if !rd.ascending {
		first = firstNames(&rd.units.stringStore)
	}
	if first == nil {
		// Every group is a unit of its own.
		t.Units, t.profile = rd.units.strings(), slices.Concat(rd.groupProfile...)
	} else {
		rd.regroup(first)
	}
	rd.units, rd.groupUnit, rd.groupProfile, rd.groupLine = nil, nil, nil, nil
	return rd.result()
}

// result is the table read, or the error of the duplicate found.
func (rd *ratingsReader) result() (*Table, error) {
	t := rd.t
	if d := rd.dup; d != nil {
		return nil, fmt.Errorf("%s:%d: duplicate rating of unit %q by coder %q (first at line %d)",
			t.Name, d.line, d.unit, t.Coders[d.coder], d.first)
	}
	return t, nil
}

// stop stops the goroutines of split lookups, if any, for a reader given
// up on (after a malformed row); table stops them itself.
func (rd *ratingsReader) stop() {
	if rd.parts != nil {
		rd.parts.finish()
	}
}

// firstNames returns, for each of the names, the index of the first name
// equal to it, or nil when the names are distinct. The names are split
// into parts by their hashes, keeping their order within a part, and each
// part goes into a table small enough to stay in cache: a pass over the
// names and a few over integers, where a table of a million names takes a
// cache miss per name.
func firstNames(names *stringStore) []int32 {
	n := names.n
	seed := maphash.MakeSeed()
	hash := func(i int32) uint64 { return maphash.String(seed, names.at(i)) }
	// The part of each name is the top byte of its hash; the hashes
	// themselves are computed again per part rather than kept, which for
	// three million names (one-row groups) would hold 24 MB more.
	const partBits = 8
	part := make([]uint8, n)
	from := make([]int32, 1<<partBits+1)
	for i := range part {
		part[i] = uint8(hash(int32(i)) >> (64 - partBits))
		from[int(part[i])+1]++
	}
	for p := range 1 << partBits {
		from[p+1] += from[p]
	}
	order := make([]int32, n)
	next := slices.Clone(from)
	for i, p := range part {
		order[next[p]] = int32(i)
		next[p]++
	}
	part, next = nil, nil
	var first []int32
	var slots []int32   // 1 + a name of the part, 0 when empty
	var hashes []uint64 // the hashes of the part's names, by slot
	for p := range 1 << partBits {
		inPart := order[from[p]:from[p+1]]
		size := 16
		for size < 2*len(inPart) {
			size *= 2
		}
		slots = slices.Grow(slots[:0], size)[:size]
		hashes = slices.Grow(hashes[:0], size)[:size]
		clear(slots)
		mask := uint64(size - 1)
	scan:
		for _, i := range inPart {
			h := hash(i)
			k := h & mask
			for ; slots[k] != 0; k = (k + 1) & mask {
				// Only first names are in the table, and the part is in
				// order: f is the first name equal to name i.
				if f := slots[k] - 1; hashes[k] == h && names.at(f) == names.at(i) {
					if first == nil {
						first = make([]int32, n)
						for j := range first {
							first[j] = int32(j)
						}
					}
					first[i] = f
					continue scan
				}
			}
			slots[k], hashes[k] = i+1, h
		}
	}
	return first
}

// regroup numbers the units in order of first appearance, the names of
// the groups' units being the same unit when first says so (nil: when
// they are the same name; names past its end are first names), gives each unit its first group's profile,
// and merges the rows of its later groups into it. It finds the first
// duplicate among each such unit's rows, and keeps the earlier of it and
// any found before; the groups all come before any duplicate found
// before, since rows are no longer kept after one.
func (rd *ratingsReader) regroup(first []int32) {
	t := rd.t
	at := func(blocks [][]int32, g int32) int32 { return blocks[g/blockSize][g%blockSize] }
	groupProfile := func(g int32) int32 { return at(rd.groupProfile, g) }
	groupLine := func(g int32) int32 { return at(rd.groupLine, g) }
	unitOfName := makeWritten[int32](rd.units.n) // 1 + the unit, 0 before its first group
	// Each group's unit, flagged when the group is not the unit's first.
	const later int32 = -1 << 31 // the sign bit
	unitOf := make([]int32, rd.groups)
	// There are no more units than names.
	t.Units = makeWritten[string](rd.units.n)[:0]
	t.profile = makeWritten[int32](rd.units.n)[:0]
	unitLine := make([]int32, 0, rd.units.n)
	for g := range rd.groups {
		name := at(rd.groupUnit, g)
		if int(name) < len(first) {
			name = first[name]
		}
		if u := unitOfName[name]; u > 0 {
			unitOf[g] = u - 1 | later
			continue
		}
		unitOf[g] = int32(len(t.Units))
		unitOfName[name] = unitOf[g] + 1
		t.Units = append(t.Units, rd.units.at(name))
		t.profile = append(t.profile, groupProfile(g))
		unitLine = append(unitLine, groupLine(g))
	}
	unitOfName = nil
	// The later groups by unit, in file order within each unit: their
	// indexes sorted by counting.
	units := len(t.Units)
	from := make([]int32, units+1)
	for _, u := range unitOf {
		if u&later != 0 {
			from[u&^later+1]++
		}
	}
	for u := range units {
		from[u+1] += from[u]
	}
	laterGroups := make([]int32, from[units])
	next := slices.Clone(from[:units])
	for g, u := range unitOf {
		if u&later != 0 {
			u &^= later
			laterGroups[next[u]] = int32(g)
			next[u]++
		}
	}
	next = nil
	seenIn := make([]int32, len(t.Coders))    // per coder: 1 + the unit it last rated
	firstLine := make([]int32, len(t.Coders)) // per coder: the line of its first row in that unit
	var rows []profileRow
	n := 0
	for u := range units {
		if from[u] < from[u+1] {
			n++
		}
	}
	merged := make([]int32, 0, n) // the new profile of each unit with later groups, in unit order
	for u := range units {
		if from[u] == from[u+1] {
			continue
		}
		base := unitLine[u]
		rows = append(rows[:0], t.profiles.at(t.profile[u])...)
		for _, g := range laterGroups[from[u]:from[u+1]] {
			for _, r := range t.profiles.at(groupProfile(g)) {
				r.offset += groupLine(g) - base
				rows = append(rows, r)
			}
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
