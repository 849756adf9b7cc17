package agreement

import (
	"slices"
	"testing"
)

// TestCoderOrder checks coderOrder against a sort by coder on every order
// of units of one to four rows, with empty values (-1) and values and
// coders of the largest ids, so that the branch-free paths for two and
// three rows keep each value with its coder and drop the lines.
func TestCoderOrder(t *testing.T) {
	pool := []profileRow{
		{coder: 0, value: -1, offset: 7},
		{coder: 5, value: 0, offset: 3},
		{coder: 1<<31 - 1, value: 1<<31 - 2, offset: 9},
		{coder: 2, value: 1<<16 + 3, offset: 1},
	}
	for n := 1; n <= len(pool); n++ {
		for _, perm := range permutations(pool[:n]) {
			want := slices.Clone(perm)
			slices.SortFunc(want, func(a, b profileRow) int { return int(a.coder) - int(b.coder) })
			for i := range want {
				want[i].offset = 0
			}
			in := slices.Clone(perm)
			if got := coderOrder(in); !slices.Equal(got, want) {
				t.Errorf("coderOrder(%v) = %v, want %v", perm, got, want)
			}
		}
	}
}

// permutations returns every order of rows.
func permutations(rows []profileRow) [][]profileRow {
	if len(rows) <= 1 {
		return [][]profileRow{slices.Clone(rows)}
	}
	var out [][]profileRow
	for i := range rows {
		rest := append(slices.Clone(rows[:i]), rows[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]profileRow{rows[i]}, p...))
		}
	}
	return out
}
