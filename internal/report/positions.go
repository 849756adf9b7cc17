package report

// positions finds the position of an id among n ids: through a table
// indexed by id when the ids are dense enough (4 bytes per id in their
// range, no hashing), through a map otherwise.
type positions struct {
	base  int64
	dense []int32 // position+1 by id−base, 0 for none; nil when sparse
	m     map[int64]int32
}

func newPositions(n int, id func(i int) int64) positions {
	if n == 0 {
		return positions{}
	}
	lo, hi := id(0), id(0)
	for i := 1; i < n; i++ {
		lo, hi = min(lo, id(i)), max(hi, id(i))
	}
	var p positions
	if span := uint64(hi - lo); hi-lo >= 0 && span < 1<<31 && span < 4*uint64(n)+1024 {
		p.base, p.dense = lo, make([]int32, span+1)
		for i := range n {
			p.dense[id(i)-lo] = int32(i) + 1
		}
		return p
	}
	p.m = make(map[int64]int32, n)
	for i := range n {
		p.m[id(i)] = int32(i)
	}
	return p
}

// of returns the position of id, if it is one of the ids; with an id
// given twice, the last position.
func (p *positions) of(id int64) (int32, bool) {
	if p.m != nil {
		i, ok := p.m[id]
		return i, ok
	}
	if d := uint64(id - p.base); id >= p.base && d < uint64(len(p.dense)) && p.dense[d] > 0 {
		return p.dense[d] - 1, true
	}
	return 0, false
}
