package agreement

import (
	"hash/maphash"
	"unsafe"
)

// blockSize is the length of every block of an interner's strings but the
// last; the first block starts small and grows to it, so short files stay
// small.
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
// idBytes), into large byte chunks rather than one allocation each, and
// each string is kept as its place in the chunks rather than as a Go
// string: a million distinct units then cost their bytes and 12 bytes
// each, none of it holding a pointer, so the garbage collector has
// nothing to scan while the file is read (keeping string headers cost a
// tenth of the reading time in collections). strings makes the Go strings
// once, at the end.
//
// An interner made by newAscendingInterner keeps no index at all while
// every new string is greater than the one before (units numbered in
// order, as exports usually are): a string greater than all the strings
// seen is new, one equal to the greatest is the last, and one comparison
// says which, where a million distinct units otherwise cost a million
// probes at random places of a large table. The first string out of order
// builds the index from the strings so far.
type interner struct {
	chunks [][]byte // string bytes; the last chunk's free capacity is filled next
	few    []string // the strings while there are at most maxFew of them
	slots  []uint64 // tag<<32 | id+1, 0 when empty; nil while few is in use
	hash   func(string) uint64
	refs   [][]stringRef // where each string is, in blocks
	n      int
	last   string // the string last looked up or added; while ascending, the greatest
	lastID int32  // -1 before the first string
	// ascending is set while nothing is indexed because every string
	// added was greater than the one before.
	ascending bool
}

const maxFew = 16

// stringRef is where an interned string's bytes are in the chunks.
type stringRef struct {
	chunk, off, len uint32
}

func newInterner() *interner {
	seed := maphash.MakeSeed()
	return &interner{lastID: -1, hash: func(s string) uint64 { return maphash.String(seed, s) }}
}

// newAscendingInterner is an interner that indexes nothing while its
// strings come in ascending order.
func newAscendingInterner() *interner {
	in := newInterner()
	in.ascending = true
	return in
}

func (in *interner) id(s string) int32 { return in.idBytes([]byte(s)) }

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
		id = in.add(b)
	}
	in.last, in.lastID = in.str(id), id
	return id
}

// idGuess is idBytes trying the string with id guess (if ≥ 0) first.
func (in *interner) idGuess(b []byte, guess int32) int32 {
	if guess >= 0 && in.str(guess) == string(b) {
		return guess
	}
	return in.idBytes(b)
}

// idBytesNew is idBytes for strings that rarely repeat the last one (the
// units of a file grouped by unit), also saying whether b is new.
func (in *interner) idBytesNew(b []byte) (id int32, isNew bool) {
	// tmp aliases b for the lookup only; it is never kept.
	tmp := unsafe.String(unsafe.SliceData(b), len(b))
	if id, ok := in.lookup(tmp); ok {
		return id, false
	}
	return in.add(b), true
}

// chunkSize is the size of the chunks that new strings are copied into.
const chunkSize = 1 << 16

// keep copies b into the chunks and returns where it is. A chunk's bytes
// are never written again once a string holds them, and a long string gets
// a chunk of its own.
func (in *interner) keep(b []byte) stringRef {
	if len(b) == 0 {
		return stringRef{}
	}
	last := len(in.chunks) - 1
	if last < 0 || len(b) > cap(in.chunks[last])-len(in.chunks[last]) {
		c := chunkSize
		if len(b) > chunkSize/4 {
			c = len(b)
		}
		in.chunks = append(in.chunks, make([]byte, 0, c))
		last++
	}
	off := len(in.chunks[last])
	in.chunks[last] = append(in.chunks[last], b...)
	return stringRef{chunk: uint32(last), off: uint32(off), len: uint32(len(b))}
}

func (in *interner) tag(s string) uint64 { return in.hash(s) >> 32 }

func (in *interner) lookup(s string) (int32, bool) {
	if in.ascending {
		if in.n == 0 {
			return 0, false
		}
		switch top := in.last; {
		case s > top:
			return 0, false
		case s == top:
			return int32(in.n - 1), true
		}
		in.ascending = false
		in.index()
	}
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

// add adds a copy of b, which lookup did not find.
func (in *interner) add(b []byte) int32 {
	id := int32(in.n)
	in.refs = appendBlock(in.refs, in.keep(b))
	in.n++
	s := in.at(id)
	switch {
	case in.ascending:
		// Nothing to index: lookup found s greater than every string,
		// and compares the next with it.
		in.last, in.lastID = s, id
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

// index indexes the strings so far, for an interner that had no index.
func (in *interner) index() {
	if in.n <= maxFew {
		for id := range in.n {
			in.few = append(in.few, in.at(int32(id)))
		}
		return
	}
	size := 64
	for 2*in.n > size {
		size *= 2
	}
	in.grow(size)
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

// str is at, from the list of few strings while there is one.
func (in *interner) str(id int32) string {
	if int(id) < len(in.few) {
		return in.few[id]
	}
	return in.at(id)
}

// at returns string id, sharing its chunk's bytes.
func (in *interner) at(id int32) string {
	r := in.refs[id/blockSize][id%blockSize]
	if r.len == 0 {
		return ""
	}
	return unsafe.String(&in.chunks[r.chunk][r.off], r.len)
}

// strings returns the interned strings in id order.
func (in *interner) strings() []string {
	out := make([]string, in.n)
	for id := range out {
		out[id] = in.at(int32(id))
	}
	return out
}
