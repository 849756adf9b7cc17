package iaa_test

import (
	"math"

	"annotate/internal/iaa"
)

// na marks a missing rating in the data below.
var na = math.NaN()

// krippendorff2011 is the reliability data of Krippendorff (2011),
// "Computing Krippendorff's Alpha-Reliability", section C: 4 coders (A–D,
// columns) × 12 units (rows), with missing values. The same data are
// irrCAC's cac.raw4raters (Gwet 2014).
func krippendorff2011() *iaa.Ratings {
	return iaa.FromColumns(
		[]float64{1, 2, 3, 3, 2, 1, 4, 1, 2, na, na, na},
		[]float64{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, na, 3},
		[]float64{na, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, na},
		[]float64{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, na},
	)
}

// diagnoses is Fleiss' (1971) psychiatric diagnoses of 30 patients by 6
// raters, as R irr's `diagnoses` data set (copied in statsmodels'
// test_inter_rater.py): 1 Depression, 2 Personality Disorder,
// 3 Schizophrenia, 4 Neurosis, 5 Other. Rows are patients.
var diagnoses = [][]float64{
	{4, 4, 4, 4, 4, 4}, {2, 2, 2, 5, 5, 5}, {2, 3, 3, 3, 3, 5}, {5, 5, 5, 5, 5, 5},
	{2, 2, 2, 4, 4, 4}, {1, 1, 3, 3, 3, 3}, {3, 3, 3, 3, 5, 5}, {1, 1, 3, 3, 3, 4},
	{1, 1, 4, 4, 4, 4}, {5, 5, 5, 5, 5, 5}, {1, 4, 4, 4, 4, 4}, {1, 2, 4, 4, 4, 4},
	{2, 2, 2, 3, 3, 3}, {1, 4, 4, 4, 4, 4}, {2, 2, 4, 4, 4, 5}, {3, 3, 3, 3, 3, 5},
	{1, 1, 1, 4, 5, 5}, {1, 1, 1, 1, 1, 2}, {2, 2, 4, 4, 4, 4}, {1, 3, 3, 5, 5, 5},
	{5, 5, 5, 5, 5, 5}, {2, 4, 4, 4, 4, 4}, {2, 2, 4, 5, 5, 5}, {1, 1, 4, 4, 4, 4},
	{1, 4, 4, 4, 4, 5}, {2, 2, 2, 2, 2, 4}, {1, 1, 1, 1, 5, 5}, {2, 2, 4, 4, 4, 4},
	{1, 3, 3, 3, 3, 3}, {5, 5, 5, 5, 5, 5},
}

// diagnosesRatings returns the first `units` patients, rated by the given
// rater columns (0-based), as Ratings.
func diagnosesRatings(units int, raters ...int) *iaa.Ratings {
	r := iaa.NewRatings(units, len(raters))
	for u := range units {
		for c, k := range raters {
			r.Set(u, c, diagnoses[u][k])
		}
	}
	return r
}

// diagnosesCounts tallies patients into the five categories 1..5 (all five
// columns present, so that Gwet's AC1 sees q = 5).
func diagnosesCounts(units int, raters ...int) iaa.Counts {
	rows := make([][]int, units)
	for u := range rows {
		rows[u] = make([]int, 5)
		for _, k := range raters {
			rows[u][int(diagnoses[u][k])-1]++
		}
	}
	return iaa.NewCounts(rows)
}

// wikipediaFleiss is the example of Wikipedia's "Fleiss' kappa" article
// (after Fleiss 1971): 10 subjects × 5 categories, 14 raters each.
var wikipediaFleiss = [][]int{
	{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
	{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
}

// anxiety is R irr's `anxiety` data (20 subjects × 3 raters, ratings 1–6),
// copied in statsmodels' test_inter_rater.py.
var anxiety = [3][]float64{
	{3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3},
	{3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4},
	{2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2},
}

// hayesKrippendorff2007 is Table 1 of Hayes & Krippendorff (2007): 40 units
// (rows) × 5 observers, ordinal ratings 0–3 with missing values.
var hayesKrippendorff2007 = [][]float64{
	{1, 1, 2, na, 2}, {1, 1, 0, 1, na}, {2, 3, 3, 3, na}, {na, 0, 0, na, 0},
	{0, 0, 0, na, 0}, {0, 0, 0, na, 0}, {1, 0, 2, na, 1}, {1, na, 2, 0, na},
	{2, 2, 2, na, 2}, {2, 1, 1, 1, na}, {na, 1, 0, 0, na}, {0, 0, 0, 0, na},
	{1, 2, 2, 2, na}, {3, 3, 2, 2, 3}, {1, 1, 1, na, 1}, {1, 1, 1, na, 1},
	{2, 1, 2, na, 2}, {1, 2, 3, 3, na}, {1, 1, 0, 1, na}, {0, 0, 0, na, 0},
	{0, 0, 1, 1, na}, {0, 0, na, 0, 0}, {2, 3, 3, 3, na}, {0, 0, 0, 0, na},
	{1, 2, na, 2, 2}, {0, 1, 1, 1, na}, {0, 0, 0, 1, 0}, {1, 2, 1, 2, na},
	{1, 1, 2, 2, na}, {1, 1, 2, na, 2}, {1, 1, 0, na, 0}, {2, 1, 2, 1, na},
	{2, 2, na, 2, 2}, {3, 2, 2, 2, na}, {2, 2, 2, na, 2}, {2, 2, 3, na, 2},
	{2, 2, 2, na, 2}, {2, 2, na, 1, 2}, {2, 2, 2, 2, na}, {1, 1, 1, na, 1},
}

// wikipediaAlpha is the computational example of Wikipedia's
// "Krippendorff's alpha" article: 3 coders × 15 units.
func wikipediaAlpha() *iaa.Ratings {
	return iaa.FromColumns(
		[]float64{na, na, na, na, na, 3, 4, 1, 2, 1, 1, 3, 3, na, 3},
		[]float64{1, na, 2, 1, 3, 3, 4, 3, na, na, na, na, na, na, na},
		[]float64{na, na, 2, 1, 3, 4, 4, na, 2, 1, 1, 3, 3, na, 4},
	)
}

// rowsRatings turns units-by-coders rows into Ratings.
func rowsRatings(rows [][]float64) *iaa.Ratings {
	r := iaa.NewRatings(len(rows), len(rows[0]))
	for u, row := range rows {
		for c, v := range row {
			r.Set(u, c, v)
		}
	}
	return r
}

// repeat returns n copies of v.
func repeat(v float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// cont3x3abstractors is irrCAC's contingency table of two abstractors
// classifying 100 pregnancies as Ectopic, AIU or NIU (Gwet 2014).
var cont3x3abstractors = [][]float64{{13, 0, 0}, {0, 20, 7}, {0, 4, 56}}

// tableRatings expands a two-coder contingency table into 2-column Ratings
// with category codes 0..k-1.
func tableRatings(t [][]float64) *iaa.Ratings {
	var a, b []float64
	for i, row := range t {
		for j, n := range row {
			for range int(n) {
				a = append(a, float64(i))
				b = append(b, float64(j))
			}
		}
	}
	return iaa.FromColumns(a, b)
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }
