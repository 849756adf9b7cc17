package agreement

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Table holds the ratings of one file, with unit, coder and value strings
// interned so that a file of millions of rows costs a few integers per row.
type Table struct {
	Name   string   // the file name given to ReadRatings, used in messages
	Units  []string // unit ids in order of first appearance
	Coders []string // coder ids in order of first appearance

	rows      rowBlocks // one per data row, in file order
	values    []string  // distinct non-empty values in order of first appearance
	valueLine []int32   // the line where each value first appears
	rated     int       // rows with a non-empty value
}

// row is one data row: indexes into Units, Coders and values (-1 for an
// empty value) and the line it starts on.
type row struct {
	unit, coder, value, line int32
}

// rowBlocks stores rows in fixed-size blocks so that a growing table never
// copies what it already holds.
type rowBlocks struct {
	blocks [][]row
	n      int
}

// blockSize is the length of every block but the last; the first block
// starts small and grows to it, so short files stay small.
const blockSize = 1 << 16

func appendBlock[T any](blocks [][]T, v T) [][]T {
	if len(blocks) == 0 || len(blocks[len(blocks)-1]) == blockSize {
		c := blockSize
		if len(blocks) == 0 {
			c = 64
		}
		blocks = append(blocks, make([]T, 0, c))
	}
	last := &blocks[len(blocks)-1]
	*last = append(*last, v)
	return blocks
}

func (b *rowBlocks) add(r row) {
	b.blocks = appendBlock(b.blocks, r)
	b.n++
}

func (b *rowBlocks) at(i int) row { return b.blocks[i/blockSize][i%blockSize] }

// all iterates over the rows in file order with their indexes.
func (b *rowBlocks) all(yield func(int, row) bool) {
	i := 0
	for _, blk := range b.blocks {
		for _, r := range blk {
			if !yield(i, r) {
				return
			}
			i++
		}
	}
}

// Ratings returns the number of rows with a value.
func (t *Table) Ratings() int { return t.rated }

// columns are the header names ReadRatings requires.
var columns = [3]string{"unit", "coder", "value"}

// ReadRatings reads a ratings CSV from r. The header must name exactly the
// columns unit, coder and value, in any order (case and surrounding spaces
// ignored); each following row is one rating, and an empty value means no
// rating. Fields are trimmed of surrounding spaces.
//
// Errors name the file, the line and the field, as in
// `ratings.csv:17: unit: empty`; a second row for the same unit and coder is
// an error naming both lines. Values are kept as text here and interpreted by
// [Compute] according to the level of measurement.
func ReadRatings(r io.Reader, name string) (*Table, error) {
	rr := newRecordReader(r)
	rec, err := rr.read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file (want the header unit,coder,value)", name)
	}
	if err != nil {
		return nil, csvError(name, rr, err)
	}
	header := make([]string, len(rec))
	for i, f := range rec {
		header[i] = string(f)
	}
	idx, err := headerIndex(header)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: header: %w", name, rr.start, err)
	}
	t := &Table{Name: name}
	units, coders, values := newInterner(), newInterner(), newInterner()
	for {
		rec, err := rr.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(name, rr, err)
		}
		line := rr.start
		if line > math.MaxInt32 {
			return nil, fmt.Errorf("%s:%d: too many lines (at most %d)", name, line, math.MaxInt32)
		}
		unit := bytes.TrimSpace(rec[idx[0]])
		coder := bytes.TrimSpace(rec[idx[1]])
		value := bytes.TrimSpace(rec[idx[2]])
		if len(unit) == 0 {
			return nil, fmt.Errorf("%s:%d: unit: empty", name, line)
		}
		if len(coder) == 0 {
			return nil, fmt.Errorf("%s:%d: coder: empty", name, line)
		}
		if !utf8.Valid(unit) || !utf8.Valid(coder) || !utf8.Valid(value) {
			return nil, fmt.Errorf("%s:%d: not valid UTF-8", name, line)
		}
		rw := row{unit: units.idBytes(unit), coder: coders.idBytes(coder), value: -1, line: int32(line)}
		if len(value) > 0 {
			n := values.n
			rw.value = values.idBytes(value)
			if int(rw.value) == n {
				t.valueLine = append(t.valueLine, int32(line))
			}
			t.rated++
		}
		t.rows.add(rw)
	}
	t.Units, t.Coders, t.values = units.strings(), coders.strings(), values.strings()
	if err := t.checkDuplicates(); err != nil {
		return nil, err
	}
	return t, nil
}

// headerIndex finds the positions of unit, coder and value in the header.
func headerIndex(header []string) ([3]int, error) {
	idx := [3]int{-1, -1, -1}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		k := slices.Index(columns[:], h)
		switch {
		case k < 0:
			return idx, fmt.Errorf("unexpected column %q (want unit,coder,value)", h)
		case idx[k] >= 0:
			return idx, fmt.Errorf("column %q appears twice", h)
		}
		idx[k] = i
	}
	for k, i := range idx {
		if i < 0 {
			return idx, fmt.Errorf("missing column %q (want unit,coder,value)", columns[k])
		}
	}
	return idx, nil
}

// interner gives strings dense ids in order of first sight. Files are
// usually grouped by unit or by coder, so the last string seen is checked
// first; while there are few distinct strings (coders, category labels) a
// linear scan beats hashing. Past that, an open-addressing hash table finds
// the id. Its slots pack 32 bits of the string's hash with the id, so a probe
// is one memory access and growing never re-reads the strings: on a file with
// a million units, where these lookups dominate, it took about a fifth less
// CPU than a map[string]int32 and half the allocation. Equal tags are settled
// by comparing the strings, so the table is exact.
//
// Keys are copied out of the reader's buffer when first seen (see
// idBytes), into large byte chunks rather than one allocation each, so a
// million distinct units cost their bytes and no work for the garbage
// collector. The strings are collected in blocks and flattened once.
type interner struct {
	chunk  []byte   // the free end of the current chunk of string bytes
	few    []string // the strings while there are at most maxFew of them
	slots  []uint64 // tag<<32 | id+1, 0 when empty; nil while few is in use
	hash   func(string) uint64
	blocks [][]string
	n      int
	last   string
	lastID int32 // -1 before the first string
}

const maxFew = 16

func newInterner() *interner {
	seed := maphash.MakeSeed()
	return &interner{lastID: -1, hash: func(s string) uint64 { return maphash.String(seed, s) }}
}

func (in *interner) id(s string) int32 {
	if in.lastID >= 0 && s == in.last {
		return in.lastID
	}
	id, ok := in.lookup(s)
	if !ok {
		id = in.add(s)
	}
	in.last, in.lastID = s, id
	return id
}

// idBytes is id for a field read into a reused buffer: the bytes are
// looked up in place and copied into a string only when they are new, so a
// file costs one allocation per distinct string, not per row.
func (in *interner) idBytes(b []byte) int32 {
	if in.lastID >= 0 && in.last == string(b) {
		return in.lastID
	}
	// tmp aliases b for the lookup only; it is never kept.
	tmp := unsafe.String(unsafe.SliceData(b), len(b))
	id, ok := in.lookup(tmp)
	if !ok {
		id = in.add(in.keep(b))
	}
	in.last, in.lastID = in.at(id), id
	return id
}

// chunkSize is the size of the chunks that new strings are copied into.
const chunkSize = 1 << 16

// keep copies b into the current chunk and returns it as a string. A
// chunk's bytes are never written again once a string holds them.
func (in *interner) keep(b []byte) string {
	if len(b) == 0 || len(b) > chunkSize/4 {
		return string(b)
	}
	if len(b) > len(in.chunk) {
		in.chunk = make([]byte, chunkSize)
	}
	n := copy(in.chunk, b)
	s := unsafe.String(&in.chunk[0], n)
	in.chunk = in.chunk[n:]
	return s
}

func (in *interner) tag(s string) uint64 { return in.hash(s) >> 32 }

func (in *interner) lookup(s string) (int32, bool) {
	if in.slots == nil {
		for i, f := range in.few {
			if f == s {
				return int32(i), true
			}
		}
		return 0, false
	}
	tag := in.tag(s)
	mask := uint64(len(in.slots) - 1)
	for i := tag & mask; ; i = (i + 1) & mask {
		e := in.slots[i]
		if e == 0 {
			return 0, false
		}
		if e>>32 == tag {
			if id := int32(uint32(e) - 1); in.at(id) == s {
				return id, true
			}
		}
	}
}

func (in *interner) add(s string) int32 {
	id := int32(in.n)
	in.blocks = appendBlock(in.blocks, s)
	in.n++
	switch {
	case in.slots == nil && len(in.few) < maxFew:
		in.few = append(in.few, s)
	case in.slots == nil:
		in.few = nil
		in.grow(64)
	case 2*in.n > len(in.slots):
		in.grow(2 * len(in.slots))
	default:
		in.place(in.tag(s)<<32 | uint64(id+1))
	}
	return id
}

// grow rebuilds the table with size slots (a power of two) from the strings.
func (in *interner) grow(size int) {
	old := in.slots
	in.slots = make([]uint64, size)
	if old == nil {
		for id := range in.n {
			in.place(in.tag(in.at(int32(id)))<<32 | uint64(id+1))
		}
		return
	}
	for _, e := range old {
		if e != 0 {
			in.place(e)
		}
	}
	in.place(in.tag(in.at(int32(in.n-1)))<<32 | uint64(in.n))
}

// place puts a slot entry in the first free slot from its tag's position.
func (in *interner) place(e uint64) {
	mask := uint64(len(in.slots) - 1)
	i := (e >> 32) & mask
	for in.slots[i] != 0 {
		i = (i + 1) & mask
	}
	in.slots[i] = e
}

func (in *interner) at(id int32) string { return in.blocks[id/blockSize][id%blockSize] }

// strings returns the interned strings in id order.
func (in *interner) strings() []string {
	out := make([]string, 0, in.n)
	for _, b := range in.blocks {
		out = append(out, b...)
	}
	return out
}

func csvError(name string, rr *recordReader, err error) error {
	var pe *parseError
	switch {
	case errors.Is(err, errFieldCount):
		return fmt.Errorf("%s:%d: wrong number of fields (want as many as the header)", name, rr.start)
	case errors.As(err, &pe):
		return fmt.Errorf("%s:%s", name, pe)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// maxDenseCells bounds the units × coders grid used to find duplicates;
// sparser tables are checked by sorting instead.
const maxDenseCells = 1 << 24

// checkDuplicates reports the first row, in file order, that repeats an
// earlier (unit, coder).
func (t *Table) checkDuplicates() error {
	cells := len(t.Units) * len(t.Coders)
	if cells <= max(maxDenseCells, 4*t.rows.n) && cells <= 1<<31-1 {
		first := make([]int32, cells) // index+1 of the row that filled a cell
		for i, r := range t.rows.all {
			k := int(r.unit)*len(t.Coders) + int(r.coder)
			if first[k] != 0 {
				return t.duplicate(t.rows.at(int(first[k]-1)), r)
			}
			first[k] = int32(i + 1)
		}
		return nil
	}
	order := make([]int32, t.rows.n)
	for i := range order {
		order[i] = int32(i)
	}
	key := func(i int32) uint64 {
		r := t.rows.at(int(i))
		return uint64(r.unit)<<32 | uint64(r.coder)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	// Among all repeats, report the one whose second row comes first.
	best := -1
	for i := 1; i < len(order); i++ {
		if key(order[i]) == key(order[i-1]) && (best < 0 || order[i] < order[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	first := best - 1
	for first > 0 && key(order[first-1]) == key(order[best]) {
		first--
	}
	return t.duplicate(t.rows.at(int(order[first])), t.rows.at(int(order[best])))
}

func (t *Table) duplicate(first, dup row) error {
	return fmt.Errorf("%s:%d: duplicate rating of unit %q by coder %q (first at line %d)",
		t.Name, dup.line, t.Units[dup.unit], t.Coders[dup.coder], first.line)
}
