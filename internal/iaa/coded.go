package iaa

import (
	"fmt"
	"math"
	"slices"
)

// Coded is a sparse ratings set whose values are coded as small integers:
// unit u's ratings are Coder[Start[u]:Start[u+1]] (ascending) with values
// Values[Code[i]]. It holds only the ratings present, 12 bytes each, so a
// million units × a hundred coders with three ratings a unit costs what the
// three ratings cost, where a [Ratings] matrix would hold a hundred cells a
// unit. Values lists the distinct values present, ascending, so that code
// order is value order.
//
// Build one with a [CodedBuilder] or [CodedOf]. The statistics that take a
// Coded ([AlphaCoded], [AlphaWithout], [AlphaBootstrapCoded],
// [PairwiseCohenCoded], [Coded.Counts]) agree with their [Ratings]
// counterparts up to rounding.
type Coded struct {
	Coders int       // coders, numbered 0..Coders−1
	Values []float64 // distinct values, ascending
	Start  []int     // len units+1
	Coder  []int32   // coder of each rating
	Code   []int32   // index into Values of each rating
}

// Units returns the number of units.
func (c *Coded) Units() int {
	if len(c.Start) == 0 {
		return 0
	}
	return len(c.Start) - 1
}

// Unit returns the coders and value codes of unit u's ratings, sharing
// storage with c.
func (c *Coded) Unit(u int) (coders, codes []int32) {
	lo, hi := c.Start[u], c.Start[u+1]
	return c.Coder[lo:hi], c.Code[lo:hi]
}

// Ratings returns the number of ratings.
func (c *Coded) Ratings() int { return len(c.Code) }

// Dense returns c as a units × coders matrix.
func (c *Coded) Dense() *Ratings {
	r := NewRatings(c.Units(), c.Coders)
	for u := range c.Units() {
		coders, codes := c.Unit(u)
		for i, k := range codes {
			r.Set(u, int(coders[i]), c.Values[k])
		}
	}
	return r
}

// Counts returns the units × categories count matrix of c, with one
// category per value of c (in the order of Values).
func (c *Coded) Counts() Counts {
	q := len(c.Values)
	out := Counts{Units: c.Units(), Categories: q, N: make([]int, c.Units()*q)}
	for u := range c.Units() {
		_, codes := c.Unit(u)
		for _, k := range codes {
			out.N[u*q+int(k)]++
		}
	}
	return out
}

// CodedOf converts a ratings matrix.
func CodedOf(r *Ratings) *Coded {
	b := NewCodedBuilder(r.Coders)
	for u := range r.Units {
		for c, v := range r.Unit(u) {
			b.Add(u, c, v)
		}
	}
	return b.Build(r.Units)
}

// CodedBuilder collects ratings in any order and builds a [Coded].
type CodedBuilder struct {
	coders      int
	unit, coder []int32
	code        []int32
	values      ValueCoder
}

// NewCodedBuilder starts a set of ratings by the given number of coders.
func NewCodedBuilder(coders int) *CodedBuilder {
	return &CodedBuilder{coders: coders}
}

// Grow makes room for n more ratings, so that a caller who knows how
// many are coming avoids growing the builder's arrays step by step.
func (b *CodedBuilder) Grow(n int) {
	b.unit = slices.Grow(b.unit, n)
	b.coder = slices.Grow(b.coder, n)
	b.code = slices.Grow(b.code, n)
}

// Add records coder's rating v of unit; a NaN v is no rating. A second
// rating of the same unit by the same coder replaces the first. A unit or
// coder out of range is a programmer mistake and panics.
func (b *CodedBuilder) Add(unit, coder int, v float64) {
	if v != v {
		return
	}
	if unit < 0 || unit > math.MaxInt32 || coder < 0 || coder >= b.coders {
		panic(fmt.Sprintf("iaa: CodedBuilder.Add: unit %d, coder %d of %d", unit, coder, b.coders))
	}
	k := b.values.Code(v)
	b.unit = append(b.unit, int32(unit))
	b.coder = append(b.coder, int32(coder))
	b.code = append(b.code, k)
}

// Build returns the ratings of units 0..units−1; ratings of units beyond
// are a programmer mistake and panic. The builder may not be used after.
func (b *CodedBuilder) Build(units int) *Coded {
	// Values ascending, codes renumbered to match.
	vals, renum := b.values.Ascending()
	// Counting sort by unit, stable, so that a later rating of a cell is
	// found after the earlier one.
	start := make([]int, units+1)
	for _, u := range b.unit {
		if int(u) >= units {
			panic(fmt.Sprintf("iaa: CodedBuilder.Build(%d): a rating of unit %d", units, u))
		}
		start[u+1]++
	}
	for u := range units {
		start[u+1] += start[u]
	}
	// start[u] serves as unit u's cursor, ending at unit u+1's start;
	// shifting by one restores the starts.
	coder := make([]int32, len(b.unit))
	code := make([]int32, len(b.unit))
	for i, u := range b.unit {
		p := start[u]
		start[u]++
		coder[p], code[p] = b.coder[i], renum[b.code[i]]
	}
	copy(start[1:], start[:units])
	start[0] = 0
	// Drop replaced ratings: the last rating of a coder in a unit wins.
	// Each unit's new start overwrites its old one once read.
	last := make([]int, b.coders) // index+1 of the coder's rating in the current unit
	stamp := make([]int, b.coders)
	out := 0
	newStart := start
	for u := range units {
		lo := out
		for i := start[u]; i < start[u+1]; i++ {
			cd := coder[i]
			if stamp[cd] == u+1 {
				code[last[cd]-1] = code[i]
				continue
			}
			stamp[cd], last[cd] = u+1, out+1
			coder[out], code[out] = cd, code[i]
			out++
		}
		newStart[u] = lo
	}
	newStart[units] = out
	// Each unit's ratings in coder order, as in a matrix row.
	for u := range units {
		lo, hi := newStart[u], newStart[u+1]
		for i := lo + 1; i < hi; i++ {
			for j := i; j > lo && coder[j] < coder[j-1]; j-- {
				coder[j], coder[j-1] = coder[j-1], coder[j]
				code[j], code[j-1] = code[j-1], code[j]
			}
		}
	}
	// A replaced rating may have held the only use of a value.
	used := make([]int32, len(vals))
	for _, k := range code[:out] {
		used[k] = 1
	}
	kept := vals[:0]
	for k, u := range used {
		if u == 1 {
			used[k] = int32(len(kept))
			kept = append(kept, vals[k])
		}
	}
	if len(kept) < len(used) {
		for i := range code[:out] {
			code[i] = used[code[i]]
		}
	}
	vals = kept
	*b = CodedBuilder{}
	return &Coded{Coders: len(last), Values: vals, Start: newStart, Coder: coder[:out:out], Code: code[:out:out]}
}
