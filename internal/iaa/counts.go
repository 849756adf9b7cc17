package iaa

import "fmt"

// Counts is a units × categories matrix of rating counts, row by row:
// N[u*Categories+k] is how many coders put unit u in category k. It is the
// input of the many-coder statistics (Fleiss' κ, Scott's π, Gwet's AC1,
// percent agreement), which ignore who the coders were.
type Counts struct {
	Units, Categories int   // matrix dimensions
	N                 []int // row by row
}

// NewCounts builds Counts from rows of equal length; it panics on ragged rows
// or negative counts.
func NewCounts(rows [][]int) Counts {
	if len(rows) == 0 {
		return Counts{}
	}
	q := len(rows[0])
	c := Counts{Units: len(rows), Categories: q, N: make([]int, 0, len(rows)*q)}
	for i, row := range rows {
		if len(row) != q {
			panic(fmt.Sprintf("iaa: NewCounts: row %d has %d categories, row 0 has %d", i, len(row), q))
		}
		for _, n := range row {
			if n < 0 {
				panic(fmt.Sprintf("iaa: NewCounts: negative count in row %d", i))
			}
		}
		c.N = append(c.N, row...)
	}
	return c
}

// Row returns the counts of unit u, sharing storage with c.
func (c Counts) Row(u int) []int { return c.N[u*c.Categories : (u+1)*c.Categories] }

func (c Counts) check() {
	if c.Units < 0 || c.Categories < 0 || len(c.N) != c.Units*c.Categories {
		panic(fmt.Sprintf("iaa: Counts is %d × %d but holds %d counts", c.Units, c.Categories, len(c.N)))
	}
}

// CountsOf tallies r into a units × categories matrix whose categories are
// the distinct values of r in ascending order (returned as cats).
func CountsOf(r *Ratings) (c Counts, cats []float64) {
	codes, cats := r.codes()
	c = Counts{Units: r.Units, Categories: len(cats), N: make([]int, r.Units*len(cats))}
	for i, k := range codes {
		if k >= 0 {
			u := i / r.Coders
			c.N[u*c.Categories+int(k)]++
		}
	}
	return c, cats
}
