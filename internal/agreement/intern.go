package agreement

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

// interner gives strings dense ids in order of first sight, keeping them
// in a stringStore. Files are usually grouped by unit or by coder, so the
// last string seen is checked first; while there are few distinct strings
// (coders, category labels) a linear scan beats hashing. Past that, an
// open-addressing hash table finds the id. Each slot holds a tag (28 bits
// of the string's hash and a code for its length), the id, and the
// string itself when it is at most 8 bytes long (unit ids such as
// u0001234 or doc12-s3), else where its bytes are; so a probe is one
// memory access, confirming a match of a short string none more and of a
// long one one more, and growing never re-reads the strings: with a
// million units in random order, looking the place up through the id as
// well cost a third more time, and reading short strings' bytes from the
// store a fifth more. Equal tags are settled by comparing the strings, so
// the table is exact.
type interner struct {
	stringStore
	few []string // the strings while there are at most maxFew of them
	// fewKeys holds each of few as its tag and inline key (see slot),
	// the strings of at most maxInline bytes then compared as numbers.
	fewKeys []slot
	slots   []slot // nil while few is in use
	hash    func(string) uint64
	last    string // the string last looked up or added
	lastID  int32  // -1 before the first string
	// nextScore counts up when guessNext's guess is right and down when
	// it is wrong; tries counts guessNext's calls.
	nextScore, tries int
	sink             uint32 // what ids read ahead, kept so the reads stay
}

// slot is one entry of the hash table: id is 1 + the string's id, 0 for
// an empty slot. The top bits of tag are the string's length code (see
// tag); key is the string's bytes, little-endian, for a short string,
// else chunk<<32 | offLen, where chunk and offLen (offset<<16 | length)
// say where its bytes are, the length being longLen for a string of that
// length or more, which is then found through its id.
type slot struct {
	tag, id uint32
	key     uint64
}

const longLen = 1<<16 - 1

// maxInline is the length of the longest string a slot holds itself.
const maxInline = 8

// lenCodeShift places a string's length code in its tag: its length
// when at most maxInline, else longCode.
const (
	lenCodeShift = 28
	longCode     = 15
)

// fewKey is s as an entry of fewKeys: its length and, when at most
// maxInline bytes long, its bytes.
func fewKey(s string) slot {
	if len(s) > maxInline {
		return slot{tag: longCode}
	}
	return slot{tag: uint32(len(s)), key: inlineKey(s)}
}

// inlineKeyBytes is inlineKey of b, read as one word when b's array has
// eight bytes from its start, as a field of a line read into a buffer
// usually has: the coder and the value of every row of a ratings file
// are looked up this way.
func inlineKeyBytes(b []byte) uint64 {
	if n := len(b); cap(b) >= 8 && n <= maxInline {
		k := binary.LittleEndian.Uint64(b[:8])
		if n < 8 {
			k &= 1<<(8*n) - 1
		}
		return k
	}
	return inlineKey(unsafe.String(unsafe.SliceData(b), len(b)))
}

// inlineKey is the bytes of b (at most maxInline) as a little-endian number.
func inlineKey(b string) uint64 {
	var k uint64
	for i := len(b) - 1; i >= 0; i-- {
		k = k<<8 | uint64(b[i])
	}
	return k
}

const maxFew = 16

func newInterner() *interner {
	seed := maphash.MakeSeed()
	return &interner{lastID: -1, nextScore: 8, hash: func(s string) uint64 { return maphash.String(seed, s) }}
}

func (in *interner) id(s string) int32 { return in.idBytes([]byte(s)) }

// idBytes is id for a field read into a reused buffer: the bytes are
// looked up in place and copied only when they are new, so a file costs
// one copy per distinct string, not per row.
func (in *interner) idBytes(b []byte) int32 {
	if id, ok := in.fewID(b); ok {
		return id
	}
	if in.lastID >= 0 && in.last == string(b) {
		return in.lastID
	}
	return in.find(b)
}

// fewID finds a string of at most maxInline bytes while there are few
// strings (coders, category labels), comparing it as a number with each:
// cheaper than trying a guess or the last string first, which in rows in
// no order are mostly wrong. Every string is compared, without a branch
// on the result, so that where b is in the list costs nothing: in such
// rows stopping at the match missed the branch predictor on most rows
// (the strings are distinct, so at most one matches). ok is false when b
// is longer, there are many strings, or b is new.
func (in *interner) fewID(b []byte) (int32, bool) {
	if in.slots != nil || len(b) > maxInline {
		return 0, false
	}
	tag, key := uint32(len(b)), inlineKeyBytes(b)
	found := int32(-1)
	for i, f := range in.fewKeys {
		if uint64(f.tag^tag)|(f.key^key) == 0 {
			found = int32(i)
		}
	}
	return found, found >= 0
}

// idGuess is idBytes trying the string with id guess (if ≥ 0) first.
func (in *interner) idGuess(b []byte, guess int32) int32 {
	if id, ok := in.fewID(b); ok {
		return id
	}
	if guess >= 0 && int(guess) < in.n && in.str(guess) == string(b) {
		in.last, in.lastID = in.str(guess), guess
		return guess
	}
	return in.idBytes(b)
}

// guessNext returns the id of b if it is the last string looked up or
// the one stored after it, without the hash table: in a file grouped by
// coder, each coder's rows list the units in the same order, so once the
// first coder's have been read the unit of a row is usually the one after
// the unit of the row before. Where that guess keeps failing (rows in no
// order) it is tried only now and then, since reading the guessed string
// costs about as much as a lookup.
func (in *interner) guessNext(b []byte) (int32, bool) {
	if in.lastID >= 0 && in.last == string(b) {
		return in.lastID, true
	}
	in.tries++
	if in.nextScore > 0 || in.tries%64 == 0 {
		// After the last string, the first: the next coder's rows begin.
		next := in.lastID + 1
		if int(next) == in.n {
			next = 0
		}
		if int(next) < in.n && in.str(next) == string(b) {
			in.nextScore = min(in.nextScore+8, 64)
			in.last, in.lastID = in.str(next), next
			return next, true
		}
		in.nextScore = max(in.nextScore-1, 0)
	}
	return 0, false
}

// find looks b up in the table, adding a copy of it if new.
func (in *interner) find(b []byte) int32 {
	// tmp aliases b for the lookup only; it is never kept.
	tmp := unsafe.String(unsafe.SliceData(b), len(b))
	id, ok := in.lookup(tmp)
	if !ok {
		id = in.add(b)
	}
	in.last, in.lastID = in.str(id), id
	return id
}

// batch is strings waiting for their ids, which ids gives them together.
type batch struct {
	bytes []byte
	ends  []int    // end of each string in bytes
	tags  []uint32 // each string's tag: made by ids, or given with the strings
}

// batchSize is the number of strings a batch holds before they are looked up.
const batchSize = 256

func (bt *batch) add(b []byte) {
	bt.bytes = append(bt.bytes, b...)
	bt.ends = append(bt.ends, len(bt.bytes))
}

func (bt *batch) len() int { return len(bt.ends) }

// ids gives the strings of bt their ids in order, adding the new ones
// (the ids are those that idBytes on each string in turn would give),
// calls put with each, and empties bt. A lookup in a table of a million
// strings waits on memory twice, for the slot and for the string's
// bytes; the batch first reads every string's slot, then the bytes of
// every slot that may hold it, loads that do not wait on each other, so
// that the lookups proper find them in cache: in a file of rows in
// random order this took a third of the time of looking each unit up as
// it came. The table must exist (see indexAll).
//
// The tags are computed here unless the batch has them already, one per
// string (see tagOf).
func (in *interner) ids(bt *batch, put func(i int, id int32)) {
	if len(bt.tags) != len(bt.ends) {
		bt.tags = bt.tags[:0]
		from := 0
		for _, end := range bt.ends {
			b := bt.bytes[from:end]
			bt.tags = append(bt.tags, in.tag(unsafe.String(unsafe.SliceData(b), len(b))))
			from = end
		}
	}
	mask := uint32(len(in.slots) - 1)
	var sink uint32
	for _, tag := range bt.tags {
		sink += in.slots[tag&mask].id
	}
	for _, tag := range bt.tags {
		e := in.slots[tag&mask]
		if e.tag == tag && tag>>lenCodeShift == longCode {
			if chunk, offLen := e.key>>32, uint32(e.key); offLen&longLen < longLen {
				sink += uint32(in.chunks[chunk][offLen>>16])
			}
		}
	}
	in.sink += sink
	from := 0
	for i, end := range bt.ends {
		b := bt.bytes[from:end]
		from = end
		id, ok := in.lookupTag(unsafe.String(unsafe.SliceData(b), len(b)), bt.tags[i])
		if !ok {
			id = in.addTag(b, bt.tags[i])
		}
		put(i, id)
		in.lastID = id
	}
	if in.lastID >= 0 {
		// Only the last one: each string read back would wait on memory.
		in.last = in.str(in.lastID)
	}
	bt.bytes, bt.ends, bt.tags = bt.bytes[:0], bt.ends[:0], bt.tags[:0]
}

// str is at, from the list of few strings while there is one.
func (in *interner) str(id int32) string {
	if int(id) < len(in.few) {
		return in.few[id]
	}
	return in.at(id)
}

// tag is 28 bits of s's hash under its length code (the bits that place
// it in the table are the lowest).
func (in *interner) tag(s string) uint32 { return tagOf(in.hash(s), len(s)) }

// tagOf is the tag of a string of length n with hash h. Only the top 32
// bits of the hash go into it.
func tagOf(h uint64, n int) uint32 {
	code := uint32(longCode)
	if n <= maxInline {
		code = uint32(n)
	}
	return uint32(h>>32)&(1<<lenCodeShift-1) | code<<lenCodeShift
}

// slotOf is the table entry of string id, with tag.
func (in *interner) slotOf(id int32, tag uint32) slot {
	r := in.refs[id/blockSize][id%blockSize]
	if r.len <= maxInline {
		return slot{tag: tag, id: uint32(id) + 1, key: inlineKey(in.at(id))}
	}
	n := min(r.len, longLen)
	return slot{tag: tag, id: uint32(id) + 1, key: uint64(r.chunk)<<32 | uint64(r.off<<16|n)}
}

// holds reports whether the string of slot e, whose tag is s's, is s.
func (in *interner) holds(e slot, s string) bool {
	if len(s) <= maxInline {
		return e.key == inlineKey(s)
	}
	chunk, offLen := e.key>>32, uint32(e.key)
	n := offLen & longLen
	switch {
	case n == longLen:
		return in.at(int32(e.id-1)) == s
	case int(n) != len(s):
		return false
	}
	off := offLen >> 16
	return string(in.chunks[chunk][off:off+n]) == s
}

func (in *interner) lookup(s string) (int32, bool) {
	if in.slots == nil {
		if len(s) <= maxInline {
			k := fewKey(s)
			for i, f := range in.fewKeys {
				if f == k {
					return int32(i), true
				}
			}
			return 0, false
		}
		for i, f := range in.few {
			if f == s {
				return int32(i), true
			}
		}
		return 0, false
	}
	return in.lookupTag(s, in.tag(s))
}

// lookupTag is lookup in the hash table, with the string's tag.
func (in *interner) lookupTag(s string, tag uint32) (int32, bool) {
	mask := uint32(len(in.slots) - 1)
	for i := tag & mask; ; i = (i + 1) & mask {
		e := &in.slots[i]
		if e.id == 0 {
			return 0, false
		}
		if e.tag == tag && in.holds(*e, s) {
			return int32(e.id - 1), true
		}
	}
}

// add adds a copy of b, which lookup did not find.
func (in *interner) add(b []byte) int32 { return in.addTag(b, 0) }

// addTag is add given b's tag when there is a hash table, so that it is
// not hashed again (the tag is not used otherwise).
func (in *interner) addTag(b []byte, tag uint32) int32 {
	id := in.stringStore.add(b)
	s := in.at(id)
	switch {
	case in.slots == nil && len(in.few) < maxFew:
		in.few = append(in.few, s)
		in.fewKeys = append(in.fewKeys, fewKey(s))
	case in.slots == nil:
		in.few, in.fewKeys = nil, nil
		in.grow(64)
	case 2*in.n > len(in.slots):
		in.grow(2 * len(in.slots))
	default:
		if tag == 0 {
			tag = in.tag(s)
		}
		in.place(in.slotOf(id, tag))
	}
	return id
}

// indexAll indexes every string stored so far, for an interner that was
// used as a plain stringStore: strings added through stringStore.add are
// not indexed, and lookup may only be used after indexAll. Of equal
// strings stored more than once only the first is indexed, so lookup
// finds it; indexAll returns, for each string stored so far, the id of
// the first string equal to it, or nil when they are distinct. Strings
// known to be distinct are not looked for.
func (in *interner) indexAll(distinct bool) []int32 {
	in.few, in.fewKeys, in.lastID = nil, nil, -1
	size := 64
	for 2*in.n > size {
		size *= 2
	}
	in.slots = makeWritten[slot](size)
	var first []int32
	for id := range int32(in.n) {
		s := in.at(id)
		if distinct {
			in.place(in.slotOf(id, in.tag(s)))
			continue
		}
		if f, ok := in.lookup(s); ok {
			if first == nil {
				first = make([]int32, in.n)
				for i := range first {
					first[i] = int32(i)
				}
			}
			first[id] = f
			continue
		}
		in.place(in.slotOf(id, in.tag(s)))
	}
	return first
}

// grow rebuilds the table with size slots (a power of two): from the
// strings when there was none, else from the old entries and the string
// just added.
func (in *interner) grow(size int) {
	old := in.slots
	in.slots = makeWritten[slot](size)
	if old == nil {
		for id := range int32(in.n) {
			in.place(in.slotOf(id, in.tag(in.at(id))))
		}
		return
	}
	for _, e := range old {
		if e.id != 0 {
			in.place(e)
		}
	}
	id := int32(in.n - 1)
	in.place(in.slotOf(id, in.tag(in.at(id))))
}

// place puts a slot entry in the first free slot from its tag's position.
func (in *interner) place(e slot) {
	mask := uint32(len(in.slots) - 1)
	i := e.tag & mask
	for in.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	in.slots[i] = e
}
