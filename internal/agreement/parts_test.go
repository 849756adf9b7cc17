package agreement

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// readBothWays reads in with units looked up on one core and split
// between two (see unitParts), and returns both results, failing the
// test if the second read did not split.
func readBothWays(t *testing.T, in string) (one, two *Table, errOne, errTwo error) {
	t.Helper()
	defer func(procs int, split bool, hook func()) {
		runtime.GOMAXPROCS(procs)
		splitLookups, onSplit = split, hook
	}(runtime.GOMAXPROCS(2), splitLookups, onSplit)
	splits := 0
	onSplit = func() { splits++ }
	splitLookups = false
	one, errOne = ReadRatings(strings.NewReader(in), "r.csv")
	if splits != 0 {
		t.Fatal("lookups split with splitting off")
	}
	splitLookups = true
	two, errTwo = ReadRatings(strings.NewReader(in), "r.csv")
	if splits != 1 {
		t.Fatalf("lookups split %d times, want once", splits)
	}
	return one, two, errOne, errTwo
}

// TestSplitLookupsSameTable reads files whose rows come in no order, so
// that the reader looks units up on two cores, and expects exactly the
// table, and so every statistic and every pairwise κ at every level, that
// it reads on one; and the same error, naming the same lines, for a
// malformed row or a duplicate in the second half of the file.
func TestSplitLookupsSameTable(t *testing.T) {
	const units = 30_000
	rng := rand.New(rand.NewPCG(3, 4))
	scale := []string{"1", "2", "2.5", "3", "4", "5"}
	var rows []string
	for u := range units {
		// Mostly three coders; some units have five, more than a unit's
		// record holds inline, and some coders rate only a few units.
		coders := 3
		if u%17 == 0 {
			coders = 5
		}
		truth := rng.IntN(len(scale))
		for c := range coders {
			if rng.Float64() < 0.03 {
				continue // no row
			}
			v := scale[truth]
			if rng.Float64() < 0.3 {
				v = scale[rng.IntN(len(scale))]
			}
			if rng.Float64() < 0.02 {
				v = ""
			}
			rows = append(rows, fmt.Sprintf("unit-%05d,coder%d,%s", u, c, v))
		}
	}
	// Rows of the first coder in unit order (guessing works and many
	// names are held before lookups are split), then the rest shuffled;
	// and all rows shuffled.
	var firstCoder, others []string
	for _, r := range rows {
		if strings.Contains(r, ",coder0,") {
			firstCoder = append(firstCoder, r)
		} else {
			others = append(others, r)
		}
	}
	rng.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	shuffled := slices.Clone(rows)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	files := []struct {
		name string
		rows []string
	}{
		{"shuffled", shuffled},
		{"first-coder-then-shuffled", append(firstCoder, others...)},
	}
	file := func(rows []string) string { return "unit,coder,value\n" + strings.Join(rows, "\n") + "\n" }
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			in := file(f.rows)
			one, two, err1, err2 := readBothWays(t, in)
			if err1 != nil || err2 != nil {
				t.Fatalf("errors %v, %v", err1, err2)
			}
			sameTable(t, two, one)
			for _, level := range []string{"nominal", "ordinal", "interval", "ratio"} {
				for _, w := range []string{"none", "quadratic"} {
					if level == "nominal" && w != "none" {
						continue
					}
					opts := Options{Level: level, Weights: w}
					r1, err1 := Compute(one, opts)
					r2, err2 := Compute(two, opts)
					if err1 != nil || err2 != nil {
						t.Fatalf("%s: errors %v, %v", level, err1, err2)
					}
					if !reflect.DeepEqual(r2, r1) {
						t.Errorf("%s %s: report split\n%+v\none core\n%+v", level, w, r2, r1)
					}
				}
			}

			// A malformed row late in the file, after rows a part has
			// already filed; a duplicate later still is not reported.
			n := len(f.rows)
			bad := slices.Clone(f.rows)
			bad[n-100] = "unit-00001,coder1"
			bad = append(bad, f.rows[n/2])
			wantErr := fmt.Sprintf("r.csv:%d: wrong number of fields (want as many as the header)", n-100+2)
			sameError(t, "malformed", file(bad), wantErr)

			// Duplicates in the second half: the one on the earliest
			// line is reported, with the line of the row it repeats.
			dup := slices.Clone(f.rows)
			dup = append(dup, f.rows[n-5], f.rows[n/3], f.rows[n/2])
			wantErr = fmt.Sprintf(`r.csv:%d: duplicate rating of unit %q by coder %q (first at line %d)`,
				n+2, unitOf(f.rows[n-5]), coderOf(f.rows[n-5]), n-5+2)
			sameError(t, "duplicate", file(dup), wantErr)

			// Duplicates of sixteen units, which fall in both parts
			// whatever the hash's seed, drawn anew for each read: the
			// earliest line's is reported, from either part.
			many := slices.Clone(f.rows)
			for k := range 16 {
				many = append(many, f.rows[n-1-k*97])
			}
			wantErr = fmt.Sprintf(`r.csv:%d: duplicate rating of unit %q by coder %q (first at line %d)`,
				n+2, unitOf(f.rows[n-1]), coderOf(f.rows[n-1]), n-1+2)
			for range 12 {
				sameError(t, "many duplicates", file(many), wantErr)
			}
		})
	}
}

func unitOf(row string) string  { return strings.Split(row, ",")[0] }
func coderOf(row string) string { return strings.Split(row, ",")[1] }

// sameError reads in both ways and expects the error want from both.
func sameError(t *testing.T, label, in, want string) {
	t.Helper()
	_, _, err1, err2 := readBothWays(t, in)
	for i, err := range []error{err1, err2} {
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v (read on %d cores), want %q", label, err, i+1, want)
		}
	}
}

// sameTable compares everything two tables hold.
func sameTable(t *testing.T, got, want *Table) {
	t.Helper()
	same := func(what string, a, b any) {
		t.Helper()
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s differ", what)
		}
	}
	same("units", got.Units, want.Units)
	same("coders", got.Coders, want.Coders)
	same("values", got.values, want.values)
	same("value lines", got.valueLine, want.valueLine)
	same("ratings", got.rated, want.rated)
	same("unit profiles", got.profile, want.profile)
	if got.profiles.len() != want.profiles.len() {
		t.Fatalf("%d profiles, want %d", got.profiles.len(), want.profiles.len())
	}
	for k := range int32(want.profiles.len()) {
		if !slices.Equal(got.profiles.at(k), want.profiles.at(k)) {
			t.Fatalf("profile %d: %v, want %v", k, got.profiles.at(k), want.profiles.at(k))
		}
	}
}
