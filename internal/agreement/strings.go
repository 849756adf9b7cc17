package agreement

import "unsafe"

// stringStore keeps strings copied out of the reader's buffer into large
// byte chunks rather than one allocation each, and each string as its
// place in the chunks rather than as a Go string: a million distinct
// units then cost their bytes and 12 bytes each, none of it holding a
// pointer, so the garbage collector has nothing to scan while the file is
// read (keeping string headers cost a tenth of the reading time in
// collections). strings makes the Go strings once, at the end.
type stringStore struct {
	chunks [][]byte      // string bytes; the last chunk's free capacity is filled next
	refs   [][]stringRef // where each string is, in blocks
	n      int
}

// stringRef is where a stored string's bytes are in the chunks.
type stringRef struct {
	chunk, off, len uint32
}

// chunkSize is the size of the chunks that strings are copied into.
const chunkSize = 1 << 16

// add stores a copy of b and returns its index. A chunk's bytes are never
// written again once a string holds them, and a long string gets a chunk
// of its own.
func (st *stringStore) add(b []byte) int32 {
	ref := stringRef{}
	if len(b) > 0 {
		last := len(st.chunks) - 1
		if last < 0 || len(b) > cap(st.chunks[last])-len(st.chunks[last]) {
			c := chunkSize
			if len(b) > chunkSize/4 {
				c = len(b)
			}
			st.chunks = append(st.chunks, make([]byte, 0, c))
			last++
		}
		ref = stringRef{chunk: uint32(last), off: uint32(len(st.chunks[last])), len: uint32(len(b))}
		st.chunks[last] = append(st.chunks[last], b...)
	}
	st.refs = appendBlock(st.refs, ref)
	st.n++
	return int32(st.n - 1)
}

// at returns string i, sharing its chunk's bytes.
func (st *stringStore) at(i int32) string {
	r := st.refs[i/blockSize][i%blockSize]
	if r.len == 0 {
		return ""
	}
	return unsafe.String(&st.chunks[r.chunk][r.off], r.len)
}

// strings returns the stored strings in order.
func (st *stringStore) strings() []string {
	out := make([]string, st.n)
	for i := range out {
		out[i] = st.at(int32(i))
	}
	return out
}

// blockSize is the length of every block but the last of the blocks that
// long lists are kept in (a growing slice of a million would be copied a
// dozen times); the first block starts small and grows to it, so short
// files stay small.
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
