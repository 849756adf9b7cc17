package agreement

import (
	"math"
	"runtime"
	"sync"
	"unsafe"
)

// splitLookups is whether units that have to be looked up one by one
// (rows in no order) are looked up on two cores, when there are two (see
// unitParts). Tests turn it off to compare the two ways.
var splitLookups = true

// onSplit, unless nil, is called when lookups are split, for tests.
var onSplit func()

// unitParts looks up the units of a file whose rows come in no order on
// two cores. Looking a unit up in a table of a million waits on memory,
// and was most of the time such a file took to read, with one core
// reading the rows as well; so the names are split in two by a bit of
// their hash, and each part has an interner and a unitRows of its own,
// which a goroutine of its own fills with the groups the reader sends it,
// in batches. The reader itself only reads rows, so every error it finds
// is reported as before, in file order.
//
// A part numbers its names in order of first appearance and notes the
// line where each first appears, so that at the end the two parts' units
// merge, by that line, into the order of first appearance in the file:
// the table is the one a single interner would have made.
type unitParts struct {
	hash  func(string) uint64
	parts [2]unitPart
	wg    sync.WaitGroup
	done  bool
}

// unitPart is one part of the names, with the rows of their units.
type unitPart struct {
	names *interner
	rows  unitRows
	first [][]int32 // the line of each name's first row, by id
	// fill is the batch the reader fills; full carries filled ones to the
	// part's goroutine, free brings them back.
	fill       *partBatch
	full, free chan *partBatch
}

// partChunks is the number of pending batches (of up to batchSize groups)
// the reader sends a part at a time, so that it waits for the part's
// goroutine, or wakes it, once per thousands of groups.
const partChunks = 8

// partBatch is groups on their way to a part.
type partBatch struct {
	groups [partChunks]pendingGroups
	n      int // groups[n] is being filled; those before it are full
}

// partBatches is the number of batches each part has: one being filled,
// one being filed, one waiting.
const partBatches = 3

func newUnitParts(hash func(string) uint64) *unitParts {
	ps := &unitParts{hash: hash}
	for i := range ps.parts {
		p := &ps.parts[i]
		p.names = newInterner()
		p.names.hash = hash
		p.full = make(chan *partBatch, partBatches)
		p.free = make(chan *partBatch, partBatches)
		p.fill = &partBatch{}
		for range partBatches - 1 {
			p.free <- &partBatch{}
		}
	}
	return ps
}

// canSplitLookups reports whether lookups may be split between cores.
func canSplitLookups() bool { return splitLookups && runtime.GOMAXPROCS(0) > 1 }

// partOf is the part a name with hash h goes to: the tag takes the top
// bits of the hash, the part the lowest.
func partOf(h uint64) int { return int(h & 1) }

// start starts the parts' goroutines.
func (ps *unitParts) start() {
	for i := range ps.parts {
		p := &ps.parts[i]
		ps.wg.Go(func() {
			for b := range p.full {
				for k := range b.groups {
					b.groups[k].file(p.names, &p.rows, nil, &p.first)
				}
				b.n = 0
				p.free <- b
			}
		})
	}
}

// add sends a group of rows of the unit named unit, its first row on
// line, to the unit's part.
func (ps *unitParts) add(unit []byte, group []profileRow, line int32) {
	h := ps.hash(unsafe.String(unsafe.SliceData(unit), len(unit)))
	p := &ps.parts[partOf(h)]
	b := p.fill
	pg := &b.groups[b.n]
	pg.add(unit, group, line)
	pg.names.tags = append(pg.names.tags, tagOf(h, len(unit)))
	if pg.len() < batchSize {
		return
	}
	if b.n++; b.n == partChunks {
		p.full <- b
		p.fill = <-p.free
	}
}

// finish sends the groups still in the reader's hands and waits for the
// parts to file every group. It may be called more than once.
func (ps *unitParts) finish() {
	if ps.done {
		return
	}
	ps.done = true
	for i := range ps.parts {
		p := &ps.parts[i]
		p.full <- p.fill
		p.fill = nil
		close(p.full)
	}
	ps.wg.Wait()
}

// split moves the names of rd.units, with their rows in rd.byUnit, into
// parts and starts them: rd looks units up in parts from then on.
func (rd *ratingsReader) split() {
	rd.flush()
	old, ur := rd.units, rd.byUnit
	ps := newUnitParts(old.hash)
	// Each first name's id in its part, the part in the lowest bit.
	loc := make([]int32, ur.n)
	for i := range int32(old.n) {
		if int(i) < len(rd.alias) && rd.alias[i] != i {
			continue
		}
		s := old.at(i)
		k := partOf(ps.hash(s))
		p := &ps.parts[k]
		id := p.names.add(unsafe.Slice(unsafe.StringData(s), len(s)))
		p.first = appendBlock(p.first, math.MaxInt32)
		loc[i] = id<<1 | int32(k)
		if int(i) >= ur.n {
			continue // no rows; not so far, but then it is no unit
		}
		rec := &ur.recs[i/blockSize][i%blockSize]
		for _, r := range rec.rows[:rec.n] {
			p.addRow(id, profileRow{coder: int32(r.coder), value: int32(r.value) - 1, offset: r.line})
		}
	}
	for _, b := range ur.over {
		for _, o := range b {
			l := loc[o.name]
			ps.parts[l&1].addRow(l>>1, o.row)
		}
	}
	rd.units, rd.byUnit, rd.alias = nil, nil, nil
	rd.parts = ps
	ps.start()
	if onSplit != nil {
		onSplit()
	}
}

// addRow adds row r (its offset being its line) to the unit of name id,
// lowering the name's first line to r's if it is earlier.
func (p *unitPart) addRow(id int32, r profileRow) {
	p.rows.add(id, r)
	f := &p.first[id/blockSize][id%blockSize]
	*f = min(*f, r.offset)
}

// units waits for the parts and turns their rows into t's units and
// profiles, in order of first appearance, as unitRows.units does. Each
// part's units are made ready on a goroutine of its own (prepare: their
// rows read, checked for duplicates, put in coder order and hashed), a
// third merges the two parts' by the line where each unit first appears,
// and this one gives the units their profiles. With one goroutine for
// both parts' units, this end took 45 ms of a million units' 0.41 s,
// this one waiting for it. The duplicate returned is the one on the
// earliest line of either part's.
func (ps *unitParts) units(t *Table, coders int) *duplicate {
	ps.finish()
	n := 0
	for i := range ps.parts {
		p := &ps.parts[i]
		// Every name has its id: the hash tables can go.
		p.names.slots, p.names.few, p.names.fewKeys = nil, nil, nil
		p.rows.index()
		n += p.names.n
	}
	// Collected now, the hash tables' memory holds the units' slices
	// below, which would otherwise be new memory while the records are
	// still held (15 MB more at the peak, for a million units). They are
	// written before the collector can scan the names (see makeWritten).
	runtime.GC()
	t.Units = makeWritten[string](n)[:0]
	t.profile = makeWritten[int32](n)[:0]
	var dups [2]dupCheck
	var ready [2]unitStream
	for i := range ps.parts {
		dups[i] = newDupCheck(coders)
		ready[i] = newUnitStream()
		go ps.parts[i].prepare(&dups[i], ready[i])
	}
	full, free := make(chan *unitBatch, partBatches), make(chan *unitBatch, partBatches)
	for range partBatches {
		free <- &unitBatch{}
	}
	go func() {
		defer close(full)
		mergeUnits(ready, full, free)
	}()
	for b := range full {
		t.Units = append(t.Units, b.names...)
		from := 0
		for k, end := range b.ends {
			t.profile = append(t.profile, t.profiles.idHash(b.rows[from:end], b.hashes[k]))
			from = end
		}
		b.names, b.rows, b.ends, b.hashes = b.names[:0], b.rows[:0], b.ends[:0], b.hashes[:0]
		free <- b
	}
	for i := range ps.parts {
		ps.parts[i].rows = unitRows{}
		ps.parts[i].first = nil
	}
	a, b := dups[0].dup, dups[1].dup
	if a == nil || b != nil && b.line < a.line {
		return b
	}
	return a
}

// unitStream carries a part's units, made ready, to mergeUnits: full
// brings batches (closed after the last), free takes them back.
type unitStream struct {
	full, free chan *unitBatch
}

func newUnitStream() unitStream {
	s := unitStream{full: make(chan *unitBatch, partBatches), free: make(chan *unitBatch, partBatches)}
	for range partBatches {
		s.free <- &unitBatch{}
	}
	return s
}

// prepare sends the part's units in id order (their order of first
// appearance within the part) on out: each one's name and first line,
// its rows in coder order without lines and their hash, checking each
// unit's rows with dups. Units after a duplicate are sent as well: the
// table is then not wanted, and the duplicate on the earliest line of
// both parts is reported.
func (p *unitPart) prepare(dups *dupCheck, out unitStream) {
	defer close(out.full)
	var rows []profileRow
	b := <-out.free
	for id := range int32(p.names.n) {
		name := p.names.at(id)
		rows = p.rows.rowsOf(id, rows[:0])
		p.rows.release(id)
		dups.check(name, rows)
		rows = coderOrder(rows)
		b.names = append(b.names, name)
		b.first = append(b.first, p.first[id/blockSize][id%blockSize])
		b.rows = append(b.rows, rows...)
		b.ends = append(b.ends, len(b.rows))
		b.hashes = append(b.hashes, hashRows(rows))
		if len(b.names) == unitBatchSize {
			out.full <- b
			b = <-out.free
		}
	}
	out.full <- b
}

// mergeUnits sends the units of two streams (see prepare) in order of
// first appearance (the order of the lines where their names first
// appear) in batches taken from free.
func mergeUnits(in [2]unitStream, full, free chan *unitBatch) {
	var cur [2]*unitBatch
	var at, from [2]int // the next unit of cur[k], and where its rows start
	next := func(k int) {
		for cur[k] == nil || at[k] == len(cur[k].names) {
			if cur[k] != nil {
				c := cur[k]
				c.names, c.first, c.rows, c.ends, c.hashes = c.names[:0], c.first[:0], c.rows[:0], c.ends[:0], c.hashes[:0]
				in[k].free <- c
			}
			var ok bool
			if cur[k], ok = <-in[k].full; !ok {
				cur[k] = nil
				return
			}
			at[k], from[k] = 0, 0
		}
	}
	next(0)
	next(1)
	batch := <-free
	for cur[0] != nil || cur[1] != nil {
		k := 0
		if cur[0] == nil || cur[1] != nil && cur[1].first[at[1]] < cur[0].first[at[0]] {
			k = 1
		}
		c, i := cur[k], at[k]
		batch.names = append(batch.names, c.names[i])
		batch.rows = append(batch.rows, c.rows[from[k]:c.ends[i]]...)
		batch.ends = append(batch.ends, len(batch.rows))
		batch.hashes = append(batch.hashes, c.hashes[i])
		from[k], at[k] = c.ends[i], i+1
		if at[k] == len(c.names) {
			next(k)
		}
		if len(batch.names) == unitBatchSize {
			full <- batch
			batch = <-free
		}
	}
	full <- batch
}

// unitBatch is units on their way to the table: their names and their
// rows in coder order, without lines, with the rows' hashes (see
// hashRows).
type unitBatch struct {
	names  []string
	first  []int32 // each unit's first line, from prepare to mergeUnits
	rows   []profileRow
	ends   []int // end of each unit's rows in rows
	hashes []uint64
}

// unitBatchSize is the number of units a unitBatch holds.
const unitBatchSize = 4096
