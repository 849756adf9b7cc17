package agreement_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"annotate/internal/agreement"
)

func TestReadRatings(t *testing.T) {
	// Columns in another order, a BOM, spaces, an empty value and a unit
	// nobody rated.
	in := "\ufeffValue, coder ,unit\n" +
		"yes,ann,s1\n" +
		" no ,bob,s1\n" +
		",ann,s2\n" +
		"yes, bob ,s3\n"
	tab, err := agreement.ReadRatings(strings.NewReader(in), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tab.Units, []string{"s1", "s2", "s3"}; !slices.Equal(got, want) {
		t.Errorf("units = %q, want %q", got, want)
	}
	if got, want := tab.Coders, []string{"ann", "bob"}; !slices.Equal(got, want) {
		t.Errorf("coders = %q, want %q", got, want)
	}
	if tab.Ratings() != 3 {
		t.Errorf("ratings = %d, want 3", tab.Ratings())
	}
}

func TestReadRatingsErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty-file", "", "r.csv: empty file (want the header unit,coder,value)"},
		{"blank-lines", "\n\n", "r.csv: empty file (want the header unit,coder,value)"},
		{"header-after-blank-line", "\nunit,coder\n", `r.csv:2: header: missing column "value"`},
		{"missing-column", "unit,coder\nu,c\n", `r.csv:1: header: missing column "value" (want unit,coder,value)`},
		{"unexpected-column", "unit,coder,value,round\n", `r.csv:1: header: unexpected column "round" (want unit,coder,value)`},
		{"twice", "unit,coder,unit\n", `r.csv:1: header: column "unit" appears twice`},
		{"field-count", "unit,coder,value\nu1,c1,1\nu2,c1\n", "r.csv:3: wrong number of fields (want as many as the header)"},
		{"empty-unit", "unit,coder,value\nu1,c1,1\n ,c2,1\n", "r.csv:3: unit: empty"},
		{"empty-coder", "unit,coder,value\nu1,,1\n", "r.csv:2: coder: empty"},
		{"bare-quote", "unit,coder,value\nu1,c\"1,1\n", "r.csv:2:"},
		{"duplicate", "unit,coder,value\nu1,c1,1\nu2,c1,2\nu1,c2,1\nu1,c1,3\n",
			`r.csv:5: duplicate rating of unit "u1" by coder "c1" (first at line 2)`},
		{"duplicate-empty", "unit,coder,value\nu1,c1,\nu1,c1,2\n",
			`r.csv:3: duplicate rating of unit "u1" by coder "c1" (first at line 2)`},
		{"duplicate-multiline", "unit,coder,value\n\"u\n1\",c1,1\n\"u\n1\",c1,2\n",
			`r.csv:4: duplicate rating of unit "u\n1" by coder "c1" (first at line 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := agreement.ReadRatings(strings.NewReader(tt.in), "r.csv")
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want %q", err, tt.want)
			}
		})
	}
}

func TestReadRatingsSparseDuplicate(t *testing.T) {
	// 9,000 units × 9,000 coders is too sparse for the dense check, so the
	// sorting path finds the duplicate; the earliest repeat is reported.
	var b strings.Builder
	b.WriteString("unit,coder,value\n")
	for i := range 9000 {
		fmt.Fprintf(&b, "u%d,c%d,1\n", i, i)
	}
	b.WriteString("u7,c7,2\n") // line 9002: repeats line 9
	b.WriteString("u3,c3,2\n") // line 9003: repeats line 5, but later
	b.WriteString("u7,c7,3\n") // line 9004
	_, err := agreement.ReadRatings(strings.NewReader(b.String()), "big.csv")
	want := `big.csv:9002: duplicate rating of unit "u7" by coder "c7" (first at line 9)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

// TestReadRatingsUnitsComeBack checks that a file whose units come back
// after other units (here grouped by coder) gives the table of the same
// rows grouped by unit, with the units in the same order of first
// appearance: the same report to the last bit. The larger file has
// enough one-row groups for the reader to look units up as it goes.
//
// On a scale, units share profiles; with 300 values nearly every unit has
// its own, and the reader stops looking profiles up.
func TestReadRatingsUnitsComeBack(t *testing.T) {
	scale := func(u, c int) int { return (u*c+u/3)%5 + 1 }
	many := func(u, c int) int {
		h := uint64(u)*0x9e3779b97f4a7c15 ^ uint64(c+1)*0xbf58476d1ce4e5b9
		return int((h ^ h>>31) % 300)
	}
	for _, tt := range []struct {
		name   string
		units  int
		values func(u, c int) int
	}{
		{"scale-300", 300, scale},
		{"scale-70000", 70_000, scale},
		{"many-values-70000", 70_000, many},
	} {
		t.Run(tt.name, func(t *testing.T) { unitsComeBack(t, tt.units, tt.values) })
	}
}

func unitsComeBack(t *testing.T, units int, values func(u, c int) int) {
	const coders = 4
	var byUnit, byCoder strings.Builder
	byUnit.WriteString("unit,coder,value\n")
	byCoder.WriteString("unit,coder,value\n")
	value := func(u, c int) string {
		if (u*7+c*3)%11 == 0 {
			return "" // no rating
		}
		return fmt.Sprint(values(u, c))
	}
	for u := range units {
		for c := range coders {
			fmt.Fprintf(&byUnit, "unit%d,c%d,%s\n", u, c, value(u, c))
		}
	}
	for c := range coders {
		for u := range units {
			fmt.Fprintf(&byCoder, "unit%d,c%d,%s\n", u, c, value(u, c))
		}
	}
	for _, level := range []string{"nominal", "interval"} {
		var want, got strings.Builder
		opts := agreement.Options{Level: level, Seed: 2}
		if units < 1000 {
			opts.Bootstrap = 30
		}
		if err := compute(t, byUnit.String(), opts).Write(&want, "json"); err != nil {
			t.Fatal(err)
		}
		if err := compute(t, byCoder.String(), opts).Write(&got, "json"); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: by coder\n%s\nby unit\n%s", level, got.String(), want.String())
		}
	}
	// A duplicate near the end, across the unit's groups.
	byCoder.WriteString("unit5,c1,1\n")
	_, err := agreement.ReadRatings(strings.NewReader(byCoder.String()), "r.csv")
	want := fmt.Sprintf(`r.csv:%d: duplicate rating of unit "unit5" by coder "c1" (first at line %d)`, units*coders+2, units+5+2)
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func TestReadRatingsDuplicateAcrossGroups(t *testing.T) {
	tests := []struct{ name, in, want string }{
		// The unit comes back with a coder twice: the second row of the
		// later group repeats its first.
		{"within-later-group", "unit,coder,value\nu1,a,1\nu2,a,1\nu1,b,1\nu1,b,2\n",
			`r.csv:5: duplicate rating of unit "u1" by coder "b" (first at line 4)`},
		// Line 4 repeats line 2 across groups before line 5 repeats line 4.
		{"across-groups-first", "unit,coder,value\nu1,a,1\nu2,a,1\nu1,a,2\nu1,a,3\n",
			`r.csv:4: duplicate rating of unit "u1" by coder "a" (first at line 2)`},
		// A repeat within a group comes before a unit's return repeats.
		{"within-group-first", "unit,coder,value\nu1,a,1\nu2,b,1\nu2,b,2\nu1,a,1\n",
			`r.csv:4: duplicate rating of unit "u2" by coder "b" (first at line 3)`},
		// A malformed line after a duplicate is reported instead.
		{"malformed-wins", "unit,coder,value\nu1,a,1\nu1,a,1\nu2,a\n",
			`r.csv:4: wrong number of fields (want as many as the header)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := agreement.ReadRatings(strings.NewReader(tt.in), "r.csv")
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}
