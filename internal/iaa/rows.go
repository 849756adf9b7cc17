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
	n     []int32
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
			r.n = append(r.n, int32(x))
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

// flatRows holds every unit's sparse row in two flat slices, built once so
// that the several passes of the statistics read them without re-tallying;
// ratings (an upper bound on the entries) sizes them at once.
type flatRows struct {
	q     int
	start []int // len units+1
	cats  []int32
	n     []int32
}

func flatten(c countRows, ratings int) *flatRows {
	f := &flatRows{q: c.categories(), start: make([]int, c.units()+1),
		cats: make([]int32, 0, ratings), n: make([]int32, 0, ratings)}
	var row countRow
	for u := range c.units() {
		c.row(u, &row)
		f.cats = append(f.cats, row.cats...)
		f.n = append(f.n, row.n...)
		f.start[u+1] = len(f.cats)
	}
	return f
}

func (f *flatRows) units() int      { return len(f.start) - 1 }
func (f *flatRows) categories() int { return f.q }
func (f *flatRows) row(u int, r *countRow) {
	lo, hi := f.start[u], f.start[u+1]
	r.cats, r.n, r.total = f.cats[lo:hi:hi], f.n[lo:hi:hi], 0
	for _, x := range r.n {
		r.total += int(x)
	}
}

// CountStatistics holds the statistics that depend only on how many of
// each unit's ratings fall in each category, each with its error (an
// [*UndefinedError] when undefined on the data).
type CountStatistics struct {
	Fleiss                             Fleiss
	FleissErr                          error
	Percent, ScottPi, GwetAC1          Coefficient
	PercentErr, ScottPiErr, GwetAC1Err error
}

// CountStatisticsCoded computes [FleissKappa], [PercentAgreement],
// [ScottPi] and [GwetAC1] on the counts of c ([Coded.Counts]) without
// building the units × categories matrix, sharing the passes over the
// units that the coefficients have in common. The results are those of
// the functions on the matrix, exactly. Units whose ratings count the
// same (see countProfiles) share their terms, which are computed once.
func CountStatisticsCoded(c *Coded) CountStatistics {
	return countStatisticsOf(c, 0)
}

// PairableCountStatisticsCoded is [CountStatisticsCoded] with units rated
// once left out, as they are of α: the category shares π_k of Scott's π
// and Gwet's AC1, AC1's number of categories q (the categories those units
// use) and the standard errors of all three coefficients come from the
// units with two or more ratings, the units each coefficient says it
// rests on (Coefficient.Units): the results are irrCAC's on those units
// alone. [CountStatisticsCoded] follows Gwet (2014) and irrCAC on every
// rated unit, whose π_k take units rated once too and whose q counts
// every category column of c; the two agree when no unit has a single
// rating. Fleiss' κ is the same in both.
func PairableCountStatisticsCoded(c *Coded) CountStatistics {
	return countStatisticsOf(c, pairableUnits)
}

func countStatisticsOf(c *Coded, onlyM int) CountStatistics {
	if p := countProfiles(c); p != nil {
		return countStatistics(p, onlyM)
	}
	return countStatistics(flatten(codedRows{c}, c.Ratings()), onlyM)
}

// countStatisticsFlat is CountStatisticsCoded with every unit's row
// tallied on its own.
func countStatisticsFlat(c *Coded) CountStatistics {
	return countStatistics(flatten(codedRows{c}, c.Ratings()), 0)
}

// countStatistics computes the count statistics on rows; onlyM is 0 (every
// rated unit enters π_k) or pairableUnits.
func countStatistics(rows countRows, onlyM int) CountStatistics {
	var s CountStatistics
	s.Fleiss, s.FleissErr = fleissKappa(rows)
	res := manyCodersModels(rows, []chance{chanceNone, chanceFleiss, chanceGwet}, onlyM,
		[]string{"percent agreement", "Scott's pi", "Gwet's AC1"})
	s.Percent, s.PercentErr = res[0].c, res[0].err
	s.ScottPi, s.ScottPiErr = res[1].c, res[1].err
	s.GwetAC1, s.GwetAC1Err = res[2].c, res[2].err
	return s
}
