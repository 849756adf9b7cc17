package iaa

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// codedRandom makes units rated by up to perUnit of coders coders (each
// rating missing with probability missing) on values 1..values, mostly
// agreeing on a unit's value.
func codedRandom(seed uint64, units, coders, perUnit, values int, missing float64) *Coded {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := NewCodedBuilder(coders)
	for u := range units {
		truth := rng.IntN(values)
		first := rng.IntN(coders)
		for i := range perUnit {
			if rng.Float64() < missing {
				continue
			}
			v := truth
			if rng.Float64() < 0.3 {
				v = rng.IntN(values)
			}
			b.Add(u, (first+i)%coders, float64(v+1))
		}
	}
	return b.Build(units)
}

// TestCountStatisticsGroupedSameAsFlat checks that grouping units by
// count row changes no count statistic in any bit, and that the grouping
// is used where it should be and refused where rows do not fit a key or
// are too varied.
func TestCountStatisticsGroupedSameAsFlat(t *testing.T) {
	cases := []struct {
		name    string
		c       *Coded
		grouped bool
	}{
		{"three binary", codedRandom(1, 5000, 3, 3, 2, 0.05), true},
		{"many coders, three a unit", codedRandom(2, 4000, 100, 3, 2, 0.1), true},
		{"five-point, five a unit", codedRandom(3, 6000, 9, 5, 5, 0.2), true},
		{"seven a unit, inexact 1/(m-1)", codedRandom(4, 3000, 7, 7, 3, 0.3), true},
		{"one value", codedRandom(5, 500, 3, 3, 1, 0.1), true},
		{"mostly missing", codedRandom(6, 2000, 4, 4, 2, 0.9), true},
		{"eight a unit", codedRandom(7, 2000, 8, 8, 2, 0), false},
		{"three hundred values", codedRandom(8, 2000, 3, 3, 300, 0), false},
		{"few units, varied rows", codedRandom(9, 40, 6, 6, 6, 0), false},
	}
	for _, tc := range cases {
		p := countProfiles(tc.c)
		if (p != nil) != tc.grouped {
			t.Errorf("%s: grouped %v, want %v", tc.name, p != nil, tc.grouped)
		}
		want := fmt.Sprintf("%v", countStatisticsFlat(tc.c))
		if got := fmt.Sprintf("%v", CountStatisticsCoded(tc.c)); got != want {
			t.Errorf("%s:\ngrouped %s\nflat    %s", tc.name, got, want)
		}
		if p == nil {
			continue
		}
		if got := fmt.Sprintf("%v", countStatistics(p, 0)); got != want {
			t.Errorf("%s: rows by profile\n%s\nwant %s", tc.name, got, want)
		}
		wantPairable := fmt.Sprintf("%v", countStatistics(flatten(codedRows{tc.c}, tc.c.Ratings()), pairableUnits))
		if got := fmt.Sprintf("%v", countStatistics(p, pairableUnits)); got != wantPairable {
			t.Errorf("%s: pairable units, rows by profile\n%s\nwant %s", tc.name, got, wantPairable)
		}
		// Every unit's row is its profile's.
		var a, b countRow
		flat := flatten(codedRows{tc.c}, tc.c.Ratings())
		for u := range tc.c.Units() {
			flat.row(u, &a)
			p.row(u, &b)
			if fmt.Sprint(a.cats, a.n, a.total) != fmt.Sprint(b.cats, b.n, b.total) {
				t.Fatalf("%s: unit %d has row %v %v, its profile %v %v", tc.name, u, a.cats, a.n, b.cats, b.n)
			}
		}
	}
}

// TestAlphaWithoutOnePassSameAsByCoder checks that reading the units once
// for every coder's α without them gives the one-coder-at-a-time results
// bit for bit, at every level, with coders who rated nothing.
func TestAlphaWithoutOnePassSameAsByCoder(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *Coded
	}{
		{"three binary", codedRandom(11, 3000, 3, 3, 2, 0.05)},
		{"many coders", codedRandom(12, 3000, 60, 4, 3, 0.2)},
		{"five-point, sparse", codedRandom(13, 2000, 9, 6, 5, 0.6)},
		{"a coder with nothing", codedRandom(14, 500, 8, 3, 4, 0)},
	} {
		if tc.name == "a coder with nothing" {
			tc.c.Coders++
		}
		if tc.c.Coders*len(tc.c.Values)*len(tc.c.Values) > maxWithoutCells {
			t.Fatalf("%s: too many cells for the one-pass path", tc.name)
		}
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			base := tc.c.coincidences()
			want := alphaWithoutByCoder(tc.c, level, base, make([]Without, tc.c.Coders))
			got := AlphaWithout(tc.c, level)
			if fmt.Sprintf("%v", got) != fmt.Sprintf("%v", want) {
				t.Errorf("%s, %v:\none pass %v\nby coder %v", tc.name, level, got, want)
			}
		}
	}
}

// TestAlphaWithoutTalliedSameAsOnePass checks that tallying the ratings
// of units of at most three gives every coder's α without them bit for
// bit as reading the units one by one, at every level, and that data
// with a unit of four takes the general path.
func TestAlphaWithoutTalliedSameAsOnePass(t *testing.T) {
	for _, tc := range append(upToThree(20), namedCoded{"one unit left without a coder", oneUnitLeft()}) {
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			base := tc.c.coincidences()
			want := alphaWithoutOnePass(tc.c, level, base, make([]Without, tc.c.Coders))
			got, ok := alphaWithoutTallied(tc.c, level, base, make([]Without, tc.c.Coders))
			if !ok {
				t.Fatalf("%s: not tallied", tc.name)
			}
			if fmt.Sprintf("%v", got) != fmt.Sprintf("%v", want) {
				t.Errorf("%s, %v:\ntallied  %v\none pass %v", tc.name, level, got, want)
			}
		}
	}
	four := codedRandom(27, 200, 5, 4, 3, 0)
	out := make([]Without, four.Coders)
	if _, ok := alphaWithoutTallied(four, Nominal, four.coincidences(), out); ok {
		t.Error("units of four ratings tallied")
	}
	for j, w := range out {
		if w != (Without{}) {
			t.Errorf("refused, but coder %d's entry was written: %+v", j, w)
		}
	}
	// AlphaWithout then takes the general path, and gives its figures.
	if got, want := fmt.Sprint(AlphaWithout(four, Nominal)), fmt.Sprint(alphaWithoutOnePass(four, Nominal, four.coincidences(), make([]Without, four.Coders))); got != want {
		t.Errorf("units of four: %s, want %s", got, want)
	}
}

// namedCoded is test data with a name for messages.
type namedCoded struct {
	name string
	c    *Coded
}

// upToThree is random data whose units have at most three ratings, in
// the shapes the tallied paths must treat as the general ones do: binary,
// two a unit, many coders, five values with most ratings missing, one
// value, twelve values. seed varies the draws.
func upToThree(seed uint64) []namedCoded {
	return []namedCoded{
		{"three binary", codedRandom(seed+1, 4000, 3, 3, 2, 0.05)},
		{"two a unit", codedRandom(seed+2, 3000, 2, 2, 3, 0.1)},
		{"many coders, three a unit", codedRandom(seed+3, 3000, 60, 3, 3, 0.2)},
		{"five-point, sparse", codedRandom(seed+4, 2000, 9, 3, 5, 0.6)},
		{"one value", codedRandom(seed+5, 800, 4, 3, 1, 0.1)},
		{"twelve values", codedRandom(seed+6, 5000, 5, 3, 12, 0)},
	}
}

// oneUnitLeft is six units of three coders where coder 2 shares five
// units with coder 0 alone: without coder 2 one unit stays pairable, so
// α without them is undefined.
func oneUnitLeft() *Coded {
	b := NewCodedBuilder(3)
	b.Add(0, 0, 1)
	b.Add(0, 1, 2)
	b.Add(0, 2, 1)
	for u := 1; u < 6; u++ {
		b.Add(u, 0, float64(u%2+1))
		b.Add(u, 2, 1)
	}
	return b.Build(6)
}

// TestCoincidencesTalliedSameAsByUnit checks that tallying units of at
// most three ratings by their values gives the coincidence matrix, its
// pairs and its pairable units bit for bit as adding unit by unit, over
// every unit and over a list of units (with repeats, as a bootstrap
// draws them), and that a unit of four is refused.
func TestCoincidencesTalliedSameAsByUnit(t *testing.T) {
	for _, tc := range upToThree(30) {
		rng := rand.New(rand.NewPCG(36, 37))
		list := make([]int32, tc.c.Units())
		for i := range list {
			list[i] = int32(rng.IntN(tc.c.Units()))
		}
		for _, units := range [][]int32{nil, list} {
			want := coincidencesByUnit(tc.c, units)
			got, ok := coincidencesTallied(tc.c, units)
			if !ok {
				t.Fatalf("%s: refused", tc.name)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s (list %v):\ntallied %v\nby unit %v", tc.name, units != nil, got, want)
			}
		}
	}
	if _, ok := coincidencesTallied(codedRandom(38, 200, 5, 4, 3, 0), nil); ok {
		t.Error("units of four ratings tallied")
	}
}

// TestBootstrapKindTableSameDraws checks that finding the units' kinds
// in a table by their values makes the bootstrap over units draw the
// same replicates, bit for bit, as finding them by key, with units of
// two, three and four ratings mixed.
func TestBootstrapKindTableSameDraws(t *testing.T) {
	mixed := codedRandom(41, 3000, 6, 4, 3, 0.25)
	for _, tc := range []struct {
		name string
		c    *Coded
	}{
		{"three binary", codedRandom(42, 3000, 3, 3, 2, 0.05)},
		{"mixed sizes", mixed},
		{"five values", codedRandom(43, 4000, 4, 3, 5, 0.2)},
	} {
		draws := func(table bool) []float64 {
			kindTable = table
			defer func() { kindTable = true }()
			draw, _ := unitsReplicate(tc.c, Nominal)
			next := draw(rand.New(rand.NewPCG(44, 45)))
			out := make([]float64, 200)
			for i := range out {
				out[i] = next()
			}
			return out
		}
		if got, want := fmt.Sprint(draws(true)), fmt.Sprint(draws(false)); got != want {
			t.Errorf("%s: draws differ with the table:\n%s\n%s", tc.name, got, want)
		}
	}
}

// TestCountProfilesKindTableSame checks that finding units' count rows in
// a table by their values groups the units exactly as finding them by
// key, with units of one to four ratings mixed.
func TestCountProfilesKindTableSame(t *testing.T) {
	for _, c := range []*Coded{codedRandom(51, 3000, 3, 3, 2, 0.3), codedRandom(52, 3000, 6, 4, 3, 0.25), codedRandom(53, 4000, 4, 3, 5, 0.1)} {
		withTable := countProfiles(c)
		kindTable = false
		byKey := countProfiles(c)
		kindTable = true
		if withTable == nil || byKey == nil {
			t.Fatal("not grouped")
		}
		if fmt.Sprint(withTable.of, *withTable.flat) != fmt.Sprint(byKey.of, *byKey.flat) {
			t.Errorf("rows differ with the table:\n%v\n%v", withTable.of[:20], byKey.of[:20])
		}
	}
}
