package report

import (
	"math"
	"slices"

	"annotate/internal/iaa"
)

// denseGoldCells bounds the cells of the count tables goldCounts keeps
// for all coders together; past it each coder's pairs go in a map.
const denseGoldCells = 1 << 20

// goldCodes numbers, in ascending order, the values a coder's labels are
// compared with gold on: the ratings' values and the gold values, so that
// a confusion matrix's rows and columns are its used codes in order.
type goldCodes struct {
	values []float64 // by code, ascending
	rating []int32   // the code of each of the ratings' value codes
	unit   []int32   // the code of each unit's gold; -1 where it has none
}

// newGoldCodes codes the ratings' values and the gold of every unit of rt.
// The gold values are gathered distinct as they come (a unit's gold is
// nearly always one of few values, and often its neighbour's): adding every
// unit's value and sorting them all allocated and sorted 500,000 values
// for each dimension of a large project. The gold's codes are written in
// the ratings' buffers when they have some (2 MB a dimension of 500,000
// sentences), so they last as long as the ratings.
func newGoldCodes(rt ratings) goldCodes {
	g := goldCodes{values: slices.Clone(rt.c.Values), rating: make([]int32, len(rt.c.Values))}
	if rt.bufs != nil {
		g.unit = rt.bufs.goldUnitOf(len(rt.gold))
	} else {
		g.unit = make([]int32, len(rt.gold))
	}
	seen := make(map[float64]bool, len(g.values))
	for _, v := range g.values {
		seen[v] = true
	}
	last := math.NaN()
	for _, v := range rt.gold {
		if v == v && v != last {
			last = v
			if !seen[v] {
				seen[v] = true
				g.values = append(g.values, v)
			}
		}
	}
	slices.Sort(g.values)
	g.values = slices.Compact(g.values)
	for i, v := range rt.c.Values {
		k, _ := slices.BinarySearch(g.values, v)
		g.rating[i] = int32(k)
	}
	for u, v := range rt.gold {
		g.unit[u] = -1
		if v == v {
			k, _ := slices.BinarySearch(g.values, v)
			g.unit[u] = int32(k)
		}
	}
	return g
}

// goldCounts counts, for each coder, the units scored against gold by
// (reference code, label code): what a confusion matrix needs, without
// keeping a value per rating.
type goldCounts struct {
	k     int
	dense [][]int // per coder, k × k; nil when k is large
	pairs []map[[2]int32]int
}

func newGoldCounts(coders, k int) *goldCounts {
	g := &goldCounts{k: k}
	if coders*k*k <= denseGoldCells {
		g.dense = make([][]int, coders)
		return g
	}
	g.pairs = make([]map[[2]int32]int, coders)
	return g
}

// add counts n of coder's labels, code lab, against reference code ref.
func (g *goldCounts) add(coder int32, ref, lab int32, n int) {
	if g.dense != nil {
		t := g.dense[coder]
		if t == nil {
			t = make([]int, g.k*g.k)
			g.dense[coder] = t
		}
		t[int(ref)*g.k+int(lab)] += n
		return
	}
	m := g.pairs[coder]
	if m == nil {
		m = map[[2]int32]int{}
		g.pairs[coder] = m
	}
	m[[2]int32{ref, lab}] += n
}

// confusion returns coder's counts as a confusion matrix over the values
// that occur in them (codes are in value order): what
// [iaa.ConfusionMatrix] gives on the same pairs as two lists.
func (g *goldCounts) confusion(coder int, values []float64) iaa.Confusion {
	type cell struct {
		pair [2]int32
		n    int
	}
	var cells []cell
	if g.dense != nil {
		for i, n := range g.dense[coder] {
			if n > 0 {
				cells = append(cells, cell{[2]int32{int32(i / g.k), int32(i % g.k)}, n})
			}
		}
	} else {
		for p, n := range g.pairs[coder] {
			cells = append(cells, cell{p, n})
		}
	}
	var used []int32
	for _, c := range cells {
		used = append(used, c.pair[0], c.pair[1])
	}
	slices.Sort(used)
	used = slices.Compact(used)
	conf := iaa.Confusion{Categories: make([]float64, len(used)), Counts: make([][]int, len(used))}
	for i, c := range used {
		conf.Categories[i] = values[c]
		conf.Counts[i] = make([]int, len(used))
	}
	at := func(c int32) int { i, _ := slices.BinarySearch(used, c); return i }
	for _, c := range cells {
		conf.Counts[at(c.pair[0])][at(c.pair[1])] += c.n
		conf.N += c.n
	}
	return conf
}
