package agreement

import "slices"

// unitRows gathers the rows of each unit as they come, for a file whose
// units come back (rows in coder-major or random order), where keeping
// the rows group by group and merging each unit's groups at the end
// costs a random read per row twice over, and an array per row. A unit
// (by its name's id in the reader's interner) has a small fixed record
// holding its first rows inline, written where the unit's row is read;
// rows past the record, or whose coder or value ids do not fit its
// packing, go to a list of their own, sorted by unit at the end. The
// lines of the rows are kept so that duplicates, settled at the end, can
// be reported with both lines.
type unitRows struct {
	recs  [][]unitRec // per name id
	n     int         // records made
	over  [][]overRow // rows that do not fit their unit's record
	nOver int
	// from and overAt index the rows in over by name (see index): those
	// of name i are over's rows overAt[from[i]:from[i+1]].
	from, overAt []int32
}

// inlineRows is the number of rows a unit's record holds: files ordinarily
// have two or three coders per unit.
const inlineRows = 3

// unitRec is the rows of one unit that fit inline, in the order they came.
// It is padded to 32 bytes, so that no record straddles two cache lines:
// with a million units in random order, reading a record costs a wait on
// memory, and a straddling one two.
type unitRec struct {
	n    uint32 // rows held inline
	rows [inlineRows]packedRow
	_    uint32
}

// packedRow is a profileRow whose coder and value ids fit in 16 bits:
// value is 1 + the value's id, 0 for an empty value; line is the row's
// line in the file.
type packedRow struct {
	coder, value uint16
	line         int32
}

// overRow is a row held outside its unit's record.
type overRow struct {
	name int32
	row  profileRow // offset is the row's line
}

// rec returns the record of name, making records up to it a block at a
// time.
func (ur *unitRows) rec(name int32) *unitRec {
	if int(name) >= ur.n {
		for len(ur.recs)*blockSize <= int(name) {
			ur.recs = append(ur.recs, makeWritten[unitRec](blockSize))
		}
		ur.n = int(name) + 1
	}
	return &ur.recs[name/blockSize][name%blockSize]
}

// touch reads the record of name (made already), so that a batch of
// rows can have their records brought into cache together.
func (ur *unitRows) touch(name int32) uint32 {
	if int(name) >= ur.n {
		return 0
	}
	return ur.recs[name/blockSize][name%blockSize].n
}

// add adds row r (its offset being its line) to the unit named name.
func (ur *unitRows) add(name int32, r profileRow) {
	rec := ur.rec(name)
	if rec.n < inlineRows && r.coder < 1<<16 && r.value+1 < 1<<16 {
		rec.rows[rec.n] = packedRow{coder: uint16(r.coder), value: uint16(r.value + 1), line: r.offset}
		rec.n++
		return
	}
	ur.over = appendBlock(ur.over, overRow{name: name, row: r})
	ur.nOver++
}

// units turns the gathered rows into t's units and profiles: the names
// (by id) that are units are those that first says are their own first
// (nil: all; names past its end are first names), in id order, which is
// the order of first appearance. Each unit's rows are checked for a coder
// rating it twice; the duplicate returned (nil for none) is the one on the
// earliest line. The records are released as they are read.
func (ur *unitRows) units(t *Table, names *stringStore, first []int32, coders int) *duplicate {
	ur.index()
	units := 0
	for i := range int32(ur.n) {
		if int(i) >= len(first) || first[i] == i {
			units++
		}
	}
	ub := newUnitBuilder(t, units, coders)
	for i := range int32(ur.n) {
		if int(i) < len(first) && first[i] != i {
			continue
		}
		ub.add(names.at(i), ur.rowsOf(i, ub.rows[:0]))
		ur.release(i)
	}
	ur.recs, ur.over = nil, nil
	return ub.dup()
}

// index sorts the rows outside the records by name, in file order within
// each, for rowsOf.
func (ur *unitRows) index() {
	ur.from, ur.overAt = nil, nil
	if ur.nOver == 0 {
		return
	}
	from := make([]int32, ur.n+1)
	for _, b := range ur.over {
		for _, o := range b {
			from[o.name+1]++
		}
	}
	for i := range ur.n {
		from[i+1] += from[i]
	}
	overAt := make([]int32, ur.nOver)
	next := slices.Clone(from[:ur.n])
	k := int32(0)
	for _, b := range ur.over {
		for _, o := range b {
			overAt[next[o.name]] = k
			next[o.name]++
			k++
		}
	}
	ur.from, ur.overAt = from, overAt
}

// rowsOf appends the rows of name (its record's and, once index has run,
// those outside it) to rows, in line order, their offsets being lines.
func (ur *unitRows) rowsOf(name int32, rows []profileRow) []profileRow {
	rec := &ur.recs[name/blockSize][name%blockSize]
	for _, p := range rec.rows[:rec.n] {
		rows = append(rows, profileRow{coder: int32(p.coder), value: int32(p.value) - 1, offset: p.line})
	}
	if ur.from != nil && ur.from[name] < ur.from[name+1] {
		for _, k := range ur.overAt[ur.from[name]:ur.from[name+1]] {
			rows = append(rows, ur.over[k/blockSize][k%blockSize].row)
		}
	}
	// Rows usually come in line order; not always when units were
	// guessed while others waited for a lookup.
	for k := 1; k < len(rows); k++ {
		for j := k; j > 0 && rows[j].offset < rows[j-1].offset; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	return rows
}

// release drops the block of records that name's ends, once read.
func (ur *unitRows) release(name int32) {
	if (name+1)%blockSize == 0 {
		ur.recs[name/blockSize] = nil
	}
}

// unitBuilder makes a table's units from their rows, one unit at a time
// in order of first appearance, checking each for a coder rating it
// twice.
type unitBuilder struct {
	t    *Table
	dups dupCheck
	rows []profileRow
}

func newUnitBuilder(t *Table, units, coders int) *unitBuilder {
	t.Units = makeWritten[string](units)[:0]
	t.profile = makeWritten[int32](units)[:0]
	return &unitBuilder{t: t, dups: newDupCheck(coders)}
}

// dup is the duplicate on the earliest line found so far.
func (ub *unitBuilder) dup() *duplicate { return ub.dups.dup }

// add adds the unit name with rows (in line order, offsets being lines),
// which it may reorder.
func (ub *unitBuilder) add(name string, rows []profileRow) {
	ub.rows = rows
	ub.t.Units = append(ub.t.Units, name)
	if ub.dups.check(name, rows) {
		ub.t.profile = append(ub.t.profile, ub.t.profiles.id(coderOrder(rows)))
	}
}

// dupCheck checks units' rows, one unit at a time, for a coder rating a
// unit twice.
type dupCheck struct {
	units     int32   // units checked
	seenIn    []int32 // per coder: 1 + the unit it last rated
	firstLine []int32 // per coder: the line of its first row in that unit
	// dup is the duplicate on the earliest line found so far.
	dup *duplicate
}

func newDupCheck(coders int) dupCheck {
	return dupCheck{seenIn: make([]int32, coders), firstLine: make([]int32, coders)}
}

// check checks the rows of the unit name (in line order, offsets being
// lines) and reports whether there is still no duplicate, so that the
// unit's profile is wanted: once there is one, the table is not.
func (dc *dupCheck) check(name string, rows []profileRow) bool {
	dc.units++
	u := dc.units
	for _, r := range rows {
		if dc.seenIn[r.coder] == u {
			if dc.dup == nil || r.offset < dc.dup.line {
				dc.dup = &duplicate{unit: name, coder: r.coder, first: dc.firstLine[r.coder], line: r.offset}
			}
			break
		}
		dc.seenIn[r.coder], dc.firstLine[r.coder] = u, r.offset
	}
	return dc.dup == nil
}

// coderOrder puts a unit's rows in coder order, without lines, and
// returns them: units with the same ratings then share a profile, however
// their rows were laid out.
//
// Units of two or three rows, most of them, are sorted without a branch
// on the rows: in a file whose rows come in no order their coders do too,
// and an insertion sort's comparisons then miss the branch predictor on
// most units (a tenth of the time such a file took to read).
func coderOrder(rows []profileRow) []profileRow {
	switch len(rows) {
	case 2:
		a, b := coderKey(rows[0]), coderKey(rows[1])
		rows[0], rows[1] = fromCoderKey(min(a, b)), fromCoderKey(max(a, b))
		return rows
	case 3:
		a, b, c := coderKey(rows[0]), coderKey(rows[1]), coderKey(rows[2])
		a, b = min(a, b), max(a, b)
		b, c = min(b, c), max(b, c)
		a, b = min(a, b), max(a, b)
		rows[0], rows[1], rows[2] = fromCoderKey(a), fromCoderKey(b), fromCoderKey(c)
		return rows
	}
	for k := range rows {
		rows[k].offset = 0
		for j := k; j > 0 && rows[j].coder < rows[j-1].coder; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	return rows
}

// coderKey is r's coder and value as one number ordered by coder (ids are
// never negative, values -1 at least), its line dropped.
func coderKey(r profileRow) uint64 {
	return uint64(uint32(r.coder))<<32 | uint64(uint32(r.value+1))
}

// fromCoderKey is the row of a coderKey, without its line.
func fromCoderKey(k uint64) profileRow {
	return profileRow{coder: int32(k >> 32), value: int32(uint32(k)) - 1}
}
