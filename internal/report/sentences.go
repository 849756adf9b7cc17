package report

import (
	"slices"
	"sync"

	"annotate/internal/iaa"
)

// sentenceOrder is a scope's sentence labels in the order a coded ratings
// set holds them: by sentence position, then coder, then scope order. The
// sentence-level dimensions share it, so that each builds its ratings in
// one pass over the labels, without sorting them again.
type sentenceOrder struct {
	start []int32 // by sentence position: its labels are order[start[p]:start[p+1]]
	order []int32 // indexes into the data's labels and the index's views
	coder []int32 // the coder of each
}

// sentenceOrder returns the scope's sentence order, worked out once.
func (x *index) sentenceOrder(sc *scope) *sentenceOrder {
	sc.sentOnce.Do(func() {
		n := len(x.data.Sentences)
		start := make([]int32, n+1)
		for _, p := range sc.parts {
			for _, v := range x.views[p.lo:p.hi] {
				if v.pos >= 0 {
					start[v.pos+1]++
				}
			}
		}
		for p := range n {
			start[p+1] += start[p]
		}
		so := &sentenceOrder{start: start, order: make([]int32, start[n]), coder: make([]int32, start[n])}
		cursor := slices.Clone(start[:n])
		for _, p := range sc.parts {
			for i := p.lo; i < p.hi; i++ {
				if v := x.views[i].pos; v >= 0 {
					k := cursor[v]
					cursor[v]++
					so.order[k], so.coder[k] = i, p.coder
				}
			}
		}
		// Each sentence's labels by coder, keeping scope order among a
		// coder's own: a sentence holds a handful.
		for p := range n {
			lo := int(start[p])
			for i := lo + 1; i < int(start[p+1]); i++ {
				for j := i; j > lo && so.coder[j] < so.coder[j-1]; j-- {
					so.coder[j], so.coder[j-1] = so.coder[j-1], so.coder[j]
					so.order[j], so.order[j-1] = so.order[j-1], so.order[j]
				}
			}
		}
		sc.sent = so
	})
	return sc.sent
}

// sentenceRatings builds the ratings of a sentence-level label dimension
// from the scope's sentence order: what a [collector] would build from
// the same labels (a coder's last rating of a sentence counts; no value is
// no rating), in one pass.
func (x *index) sentenceRatings(src source, sc *scope) ratings {
	so := x.sentenceOrder(sc)
	n := len(x.data.Sentences)
	f := src.sentence
	var vc iaa.ValueCoder
	bufs := newRatingBufs(len(so.order), n+1)
	codes, coders, start := bufs.codes, bufs.coders, bufs.start
	for p := range n {
		hi := int(so.start[p+1])
		for i := int(so.start[p]); i < hi; {
			cd := so.coder[i]
			v := nan
			for ; i < hi && so.coder[i] == cd; i++ {
				if w := f(&x.views[so.order[i]]); w == w {
					v = w
				}
			}
			if v == v {
				codes = append(codes, vc.Code(v))
				coders = append(coders, cd)
			}
		}
		start[p+1] = len(codes)
	}
	values, renum := vc.Ascending()
	for i, k := range codes {
		codes[i] = renum[k]
	}
	bufs.codes, bufs.coders = codes, coders
	out := ratings{spec: src.spec, keys: x.sentenceKeys, bufs: bufs,
		c: &iaa.Coded{Coders: len(sc.coders), Values: values, Start: start, Coder: coders[:len(coders):len(coders)], Code: codes[:len(codes):len(codes)]}}
	if src.gold != nil {
		out.gold = bufs.goldOf(n)
		for u, k := range x.sentenceKeys {
			out.gold[u] = src.gold(u, k)
		}
		if src.derived != nil {
			out.derived = src.derived()
		}
	}
	return out
}

// ratingBufs are the arrays a sentence-level dimension's ratings are
// built in, kept from one dimension to the next (see ratings.release):
// made anew, each dimension's took 20 MB on the 1.5M-label project, and a
// report's build allocated 829 MB instead of 545-551 MB for the collector
// to reclaim while it ran.
type ratingBufs struct {
	codes, coders []int32
	start         []int
	gold          []float64
	goldUnit      []int32 // the gold's codes (see newGoldCodes)
}

var ratingBufPool sync.Pool

// newRatingBufs returns buffers with room for ratings codes and coders,
// empty, and a start array of n zeros, reused when one was released.
func newRatingBufs(ratings, n int) *ratingBufs {
	b, _ := ratingBufPool.Get().(*ratingBufs)
	if b == nil {
		b = &ratingBufs{}
	}
	if cap(b.codes) < ratings {
		b.codes, b.coders = make([]int32, 0, ratings), make([]int32, 0, ratings)
	}
	b.codes, b.coders = b.codes[:0], b.coders[:0]
	if cap(b.start) < n {
		b.start = make([]int, n)
	}
	b.start = b.start[:n]
	clear(b.start)
	return b
}

// goldUnitOf returns an array of n gold codes, to be written.
func (b *ratingBufs) goldUnitOf(n int) []int32 {
	if cap(b.goldUnit) < n {
		b.goldUnit = make([]int32, n)
	}
	b.goldUnit = b.goldUnit[:n]
	return b.goldUnit
}

// goldOf returns the gold array of n units, its values to be written.
func (b *ratingBufs) goldOf(n int) []float64 {
	if cap(b.gold) < n {
		b.gold = make([]float64, n)
	}
	b.gold = b.gold[:n]
	return b.gold
}
