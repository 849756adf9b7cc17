package iaa

import "slices"

// countRows is what the many-coder statistics read: for each unit, how
// many of its ratings fall in each category. Rows are given sparse, the
// categories used in ascending order with their counts, so that data with
// many categories cost what their ratings cost. A [Counts] matrix and a
// [Coded] both provide them; the statistics add the same terms in the
// same order from either, so their results are identical.
type countRows interface {
	units() int
	categories() int
	// row fills r with unit u's counts, reusing r's storage.
	row(u int, r *countRow)
}

// countRow is one unit's ratings by category: n[i] of them in cats[i]
// (ascending, every n[i] > 0), total in all.
type countRow struct {
	cats  []int32
	n     []int
	total int
}

type countsRows Counts

func (c countsRows) units() int      { return c.Units }
func (c countsRows) categories() int { return c.Categories }
func (c countsRows) row(u int, r *countRow) {
	r.cats, r.n, r.total = r.cats[:0], r.n[:0], 0
	for k, x := range Counts(c).Row(u) {
		if x != 0 {
			r.cats = append(r.cats, int32(k))
			r.n = append(r.n, x)
			r.total += x
		}
	}
}

type codedRows struct{ c *Coded }

func (c codedRows) units() int      { return c.c.Units() }
func (c codedRows) categories() int { return len(c.c.Values) }
func (c codedRows) row(u int, r *countRow) {
	_, codes := c.c.Unit(u)
	r.cats, r.n, r.total = r.cats[:0], r.n[:0], len(codes)
	for _, k := range codes {
		if i := slices.Index(r.cats, k); i >= 0 {
			r.n[i]++
			continue
		}
		r.cats = append(r.cats, k)
		r.n = append(r.n, 1)
	}
	// Insertion sort: a unit holds a handful of ratings.
	for i := 1; i < len(r.cats); i++ {
		for j := i; j > 0 && r.cats[j] < r.cats[j-1]; j-- {
			r.cats[j], r.cats[j-1] = r.cats[j-1], r.cats[j]
			r.n[j], r.n[j-1] = r.n[j-1], r.n[j]
		}
	}
}
