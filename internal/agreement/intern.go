package agreement

import (
	"hash/maphash"
	"unsafe"
)

// interner gives strings dense ids in order of first sight, keeping them
// in a stringStore. Files are usually grouped by unit or by coder, so the
// last string seen is checked first; while there are few distinct strings
// (coders, category labels) a linear scan beats hashing. Past that, an
// open-addressing hash table finds the id. Its slots pack 32 bits of the
// string's hash with the id, so a probe is one memory access and growing
// never re-reads the strings: it took about a fifth less CPU than a
// map[string]int32 and half the allocation. Equal tags are settled by
// comparing the strings, so the table is exact.
type interner struct {
	stringStore
	few    []string // the strings while there are at most maxFew of them
	slots  []uint64 // tag<<32 | id+1, 0 when empty; nil while few is in use
	hash   func(string) uint64
	last   string // the string last looked up or added
	lastID int32  // -1 before the first string
}

const maxFew = 16

func newInterner() *interner {
	seed := maphash.MakeSeed()
	return &interner{lastID: -1, hash: func(s string) uint64 { return maphash.String(seed, s) }}
}

func (in *interner) id(s string) int32 { return in.idBytes([]byte(s)) }

// idBytes is id for a field read into a reused buffer: the bytes are
// looked up in place and copied only when they are new, so a file costs
// one copy per distinct string, not per row.
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

// str is at, from the list of few strings while there is one.
func (in *interner) str(id int32) string {
	if int(id) < len(in.few) {
		return in.few[id]
	}
	return in.at(id)
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

// add adds a copy of b, which lookup did not find.
func (in *interner) add(b []byte) int32 {
	id := in.stringStore.add(b)
	s := in.at(id)
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

// indexAll indexes every string stored so far, for an interner that was
// used as a plain stringStore: strings added through stringStore.add are
// not indexed, and lookup may only be used after indexAll. Equal strings
// stored twice are both indexed; lookup finds one of them.
func (in *interner) indexAll() {
	in.few, in.lastID = nil, -1
	size := 64
	for 2*in.n > size {
		size *= 2
	}
	in.slots = nil
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
