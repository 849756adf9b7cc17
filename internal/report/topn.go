package report

import (
	"container/heap"
	"slices"
)

// topN keeps the n best of the values offered to it, best meaning first
// in the order cmp gives, in a heap (container/heap) whose root is the
// worst kept: once the heap is full, a value no better than that costs
// one comparison, so choosing the listed few of many costs about one
// comparison each instead of a sort of them all. With a total order the
// values kept are the first n of the sorted whole.
type topN[T any] struct {
	n int
	h worstFirst[T]
}

func newTopN[T any](n int, cmp func(a, b T) int) *topN[T] {
	return &topN[T]{n: n, h: worstFirst[T]{cmp: cmp, items: make([]T, 0, max(n, 0))}}
}

// offer keeps v if it is among the n best so far.
func (t *topN[T]) offer(v T) {
	switch {
	case t.n <= 0:
	case len(t.h.items) < t.n:
		heap.Push(&t.h, v)
	case t.h.cmp(v, t.h.items[0]) < 0:
		t.h.items[0] = v
		heap.Fix(&t.h, 0)
	}
}

// sorted returns the values kept, best first.
func (t *topN[T]) sorted() []T {
	slices.SortFunc(t.h.items, t.h.cmp)
	return t.h.items
}

// worstFirst is a heap.Interface over items whose root is the worst.
type worstFirst[T any] struct {
	cmp   func(a, b T) int
	items []T
}

func (h *worstFirst[T]) Len() int           { return len(h.items) }
func (h *worstFirst[T]) Less(i, j int) bool { return h.cmp(h.items[i], h.items[j]) > 0 }
func (h *worstFirst[T]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *worstFirst[T]) Push(x any)         { h.items = append(h.items, x.(T)) }
func (h *worstFirst[T]) Pop() any {
	v := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return v
}
