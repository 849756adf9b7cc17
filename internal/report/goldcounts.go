package report

import (
	"slices"

	"annotate/internal/iaa"
)

// denseGoldCells bounds the cells of the count tables goldCounts keeps
// for all coders together; past it each coder's pairs go in a map.
const denseGoldCells = 1 << 20

// goldCodes numbers the values a coder's labels are compared with gold
// on: the ratings' values (their codes), then the gold values that no
// rating has.
type goldCodes struct {
	values []float64 // by code
	unit   []int32   // the code of each unit's gold; -1 where it has none
}

// newGoldCodes codes the gold of every unit of rt.
func newGoldCodes(rt ratings) goldCodes {
	vals := rt.c.Values
	g := goldCodes{values: slices.Clip(vals), unit: make([]int32, len(rt.gold))}
	extra := map[float64]int32{}
	for u, v := range rt.gold {
		if v != v {
			g.unit[u] = -1
			continue
		}
		if i, ok := slices.BinarySearch(vals, v); ok {
			g.unit[u] = int32(i)
			continue
		}
		k, ok := extra[v]
		if !ok {
			k = int32(len(g.values))
			extra[v] = k
			g.values = append(g.values, v)
		}
		g.unit[u] = k
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

// add counts one of coder's labels, code lab, against reference code ref.
func (g *goldCounts) add(coder int32, ref, lab int32) {
	if g.dense != nil {
		t := g.dense[coder]
		if t == nil {
			t = make([]int, g.k*g.k)
			g.dense[coder] = t
		}
		t[int(ref)*g.k+int(lab)]++
		return
	}
	m := g.pairs[coder]
	if m == nil {
		m = map[[2]int32]int{}
		g.pairs[coder] = m
	}
	m[[2]int32{ref, lab}]++
}

// confusion returns coder's counts as a confusion matrix over the values
// (by code in values) that occur in them, ascending: what
// [iaa.ConfusionMatrix] gives on the same pairs as two lists.
func (g *goldCounts) confusion(coder int, values []float64) iaa.Confusion {
	count := map[[2]int32]int{}
	if g.dense != nil {
		if t := g.dense[coder]; t != nil {
			for i, n := range t {
				if n > 0 {
					count[[2]int32{int32(i / g.k), int32(i % g.k)}] = n
				}
			}
		}
	} else {
		count = g.pairs[coder]
	}
	var used []int32
	seen := map[int32]bool{}
	for p := range count {
		for _, c := range p {
			if !seen[c] {
				seen[c] = true
				used = append(used, c)
			}
		}
	}
	slices.SortFunc(used, func(a, b int32) int {
		switch va, vb := values[a], values[b]; {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	at := make(map[int32]int, len(used))
	conf := iaa.Confusion{Categories: make([]float64, len(used)), Counts: make([][]int, len(used))}
	for i, c := range used {
		at[c] = i
		conf.Categories[i] = values[c]
		conf.Counts[i] = make([]int, len(used))
	}
	for p, n := range count {
		conf.Counts[at[p[0]]][at[p[1]]] += n
		conf.N += n
	}
	return conf
}
