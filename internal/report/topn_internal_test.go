package report

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopNAsSort checks that the values topN keeps are the first n of the
// whole sorted, for lists shorter and longer than n, with many ties
// broken by a second key, in random and in sorted and reversed order.
func TestTopNAsSort(t *testing.T) {
	type item struct{ score, id int }
	order := func(a, b item) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id)) }
	rng := rand.New(rand.NewPCG(3, 5))
	for _, size := range []int{0, 1, 7, 100, 101, 5000} {
		for _, n := range []int{0, 1, 5, 100} {
			for _, arrange := range []string{"random", "sorted", "reversed"} {
				xs := make([]item, size)
				for i := range xs {
					xs[i] = item{score: rng.IntN(20), id: i}
				}
				switch arrange {
				case "sorted":
					slices.SortFunc(xs, order)
				case "reversed":
					slices.SortFunc(xs, func(a, b item) int { return order(b, a) })
				}
				top := newTopN(n, order)
				for _, x := range xs {
					top.offer(x)
				}
				want := slices.Clone(xs)
				slices.SortFunc(want, order)
				want = want[:min(n, len(want))]
				if got := top.sorted(); !slices.Equal(got, want) {
					t.Fatalf("%d values, n %d, %s: kept %v, want %v", size, n, arrange, got, want)
				}
			}
		}
	}
}
