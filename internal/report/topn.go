package report

import "slices"

// topN keeps the n best of the values offered to it, best meaning first
// in the order cmp gives, in a heap whose root is the worst kept: each
// offer costs one comparison once the heap is full and the value is no
// better, so choosing the listed few of many costs about one comparison
// each instead of a sort of them all. With a total order the values kept
// are the first n of the sorted whole.
type topN[T any] struct {
	n    int
	cmp  func(a, b T) int
	heap []T
}

func newTopN[T any](n int, cmp func(a, b T) int) *topN[T] {
	return &topN[T]{n: n, cmp: cmp, heap: make([]T, 0, n)}
}

// offer keeps v if it is among the n best so far.
func (t *topN[T]) offer(v T) {
	h := t.heap
	switch {
	case t.n <= 0:
		return
	case len(h) < t.n:
		h = append(h, v)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if t.cmp(h[p], h[i]) >= 0 {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		t.heap = h
	case t.cmp(v, h[0]) < 0:
		h[0] = v
		for i := 0; ; {
			w, l, r := i, 2*i+1, 2*i+2
			if l < len(h) && t.cmp(h[l], h[w]) > 0 {
				w = l
			}
			if r < len(h) && t.cmp(h[r], h[w]) > 0 {
				w = r
			}
			if w == i {
				break
			}
			h[i], h[w] = h[w], h[i]
			i = w
		}
	}
}

// sorted returns the values kept, best first.
func (t *topN[T]) sorted() []T {
	slices.SortFunc(t.heap, t.cmp)
	return t.heap
}
