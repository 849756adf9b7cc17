package iaa

import (
	"math"
	"slices"
)

// smallLimit bounds the values counted in a flat array rather than a map:
// category codes are almost always small non-negative integers.
const smallLimit = 1024

// tally counts occurrences of float64 values.
type tally struct {
	small []int
	other map[float64]int
}

func newTally() *tally { return &tally{small: make([]int, smallLimit)} }

func isSmall(v float64) bool { return v >= 0 && v < smallLimit && v == math.Trunc(v) }

func (t *tally) add(v float64) {
	if isSmall(v) {
		t.small[int(v)]++
		return
	}
	if t.other == nil {
		t.other = make(map[float64]int)
	}
	t.other[v]++
}

func (t *tally) count(v float64) int {
	if isSmall(v) {
		return t.small[int(v)]
	}
	return t.other[v]
}

// distinct returns the values seen, ascending, with their counts.
func (t *tally) distinct() (vals []float64, counts []int) {
	for i, n := range t.small {
		if n > 0 {
			vals = append(vals, float64(i))
		}
	}
	for v := range t.other {
		vals = append(vals, v)
	}
	if len(t.other) > 0 {
		slices.Sort(vals)
	}
	counts = make([]int, len(vals))
	for i, v := range vals {
		counts[i] = t.count(v)
	}
	return vals, counts
}
