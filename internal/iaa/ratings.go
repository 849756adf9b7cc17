package iaa

import (
	"fmt"
	"math"
	"slices"
)

// Ratings is a units × coders matrix of ratings, stored row by row:
// Values[u*Coders+c] is coder c's rating of unit u, NaN when the coder did
// not rate the unit.
//
// At the nominal level a value is a category code (any float64 that compares
// equal to itself; small non-negative integers are fastest). At the ordinal,
// interval and ratio levels it is the number itself. At the MASI level it is a
// set of labels encoded by [SetValue].
type Ratings struct {
	Units, Coders int       // matrix dimensions
	Values        []float64 // row by row, NaN for missing
}

// NewRatings returns a units × coders matrix with every rating missing.
func NewRatings(units, coders int) *Ratings {
	if units < 0 || coders < 0 {
		panic(fmt.Sprintf("iaa: NewRatings(%d, %d): negative size", units, coders))
	}
	v := make([]float64, units*coders)
	for i := range v {
		v[i] = math.NaN()
	}
	return &Ratings{Units: units, Coders: coders, Values: v}
}

// FromColumns builds Ratings from one slice per coder, each holding that
// coder's ratings of units 0..n-1 (NaN for missing). It panics if the slices
// differ in length.
func FromColumns(cols ...[]float64) *Ratings {
	if len(cols) == 0 {
		return &Ratings{}
	}
	n := len(cols[0])
	r := &Ratings{Units: n, Coders: len(cols), Values: make([]float64, n*len(cols))}
	for c, col := range cols {
		if len(col) != n {
			panic(fmt.Sprintf("iaa: FromColumns: column %d has %d values, column 0 has %d", c, len(col), n))
		}
		for u, v := range col {
			r.Values[u*r.Coders+c] = v
		}
	}
	return r
}

// Triple is one rating: coder Coder gave unit Unit the value Value.
type Triple struct {
	Unit, Coder int     // indexes into the matrix
	Value       float64 // NaN for no rating
}

// DuplicateError reports two ratings of the same unit by the same coder.
type DuplicateError struct {
	Unit, Coder int // the cell rated twice
	First, Dup  int // indexes of the two triples in the input
}

// Error describes the duplicate.
func (e *DuplicateError) Error() string {
	return fmt.Sprintf("iaa: unit %d rated twice by coder %d (triples %d and %d)", e.Unit, e.Coder, e.First, e.Dup)
}

// FromTriples builds a units × coders matrix from (unit, coder, value)
// triples. A NaN value is a missing rating. A second rating of the same
// (unit, coder) is a [*DuplicateError]; a unit or coder index outside the
// matrix is a programmer mistake and panics.
func FromTriples(units, coders int, ts []Triple) (*Ratings, error) {
	r := NewRatings(units, coders)
	seen := make([]int32, units*coders) // index+1 of the triple that filled a cell
	for i, t := range ts {
		if t.Unit < 0 || t.Unit >= units || t.Coder < 0 || t.Coder >= coders {
			panic(fmt.Sprintf("iaa: FromTriples: triple %d (%d, %d) outside %d × %d", i, t.Unit, t.Coder, units, coders))
		}
		k := t.Unit*coders + t.Coder
		if seen[k] != 0 {
			return nil, &DuplicateError{Unit: t.Unit, Coder: t.Coder, First: int(seen[k] - 1), Dup: i}
		}
		seen[k] = int32(i + 1)
		r.Values[k] = t.Value
	}
	return r, nil
}

// At returns coder c's rating of unit u (NaN when missing).
func (r *Ratings) At(u, c int) float64 { return r.Values[u*r.Coders+c] }

// Set stores coder c's rating of unit u; NaN removes it.
func (r *Ratings) Set(u, c int, v float64) { r.Values[u*r.Coders+c] = v }

// Unit returns the ratings of unit u, one per coder, sharing storage with r.
func (r *Ratings) Unit(u int) []float64 { return r.Values[u*r.Coders : (u+1)*r.Coders] }

// Count returns the number of ratings present.
func (r *Ratings) Count() int {
	n := 0
	for _, v := range r.Values {
		if v == v {
			n++
		}
	}
	return n
}

// Categories returns the distinct values present, in ascending order.
func (r *Ratings) Categories() []float64 {
	t := newTally()
	for _, v := range r.Values {
		if v == v {
			t.add(v)
		}
	}
	vals, _ := t.distinct()
	return vals
}

func (r *Ratings) check() {
	if r.Units < 0 || r.Coders < 0 || len(r.Values) != r.Units*r.Coders {
		panic(fmt.Sprintf("iaa: Ratings is %d × %d but holds %d values", r.Units, r.Coders, len(r.Values)))
	}
}

// codes maps every rating to the index of its value in cats (ascending
// distinct values), -1 for missing.
func (r *Ratings) codes() (codes []int32, cats []float64) {
	r.check()
	cats = r.Categories()
	codes = make([]int32, len(r.Values))
	small := len(cats) > 0 && cats[0] >= 0 && cats[len(cats)-1] < smallLimit
	var lut []int32
	if small {
		lut = make([]int32, int(cats[len(cats)-1])+1)
		for i, c := range cats {
			if c == math.Trunc(c) {
				lut[int(c)] = int32(i)
			} else {
				small = false
			}
		}
	}
	for i, v := range r.Values {
		switch {
		case v != v:
			codes[i] = -1
		case small:
			codes[i] = lut[int(v)]
		default:
			j, _ := slices.BinarySearch(cats, v)
			codes[i] = int32(j)
		}
	}
	return codes, cats
}
