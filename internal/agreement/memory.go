package agreement

import "unsafe"

// pageSize is the smallest page size of the systems Go runs on.
const pageSize = 4096

// makeWritten is make([]T, n) with a zero written into every page, for a
// large slice that is read before it is written: at random, or by the
// garbage collector, which scans a slice of strings while it is being
// filled. The system maps fresh memory that is read first to its shared
// zero page, and the write that follows must then unmap that page on
// every core the process has run on: with the lookups on two cores, those
// flushes took a third of the time of reading a file in random order
// (half of it in the system). Written first, each page is simply given to
// the process.
func makeWritten[T any](n int) []T {
	s := make([]T, n)
	var zero T
	step := 1
	if size := int(unsafe.Sizeof(zero)); size > 0 && size < pageSize {
		step = pageSize / size
	}
	for i := 0; i < n; i += step {
		s[i] = zero
	}
	return s
}
