package report

import (
	"math/rand/v2"
	"testing"

	"annotate/internal/domain"
)

// TestAssignmentAfter looks up ids present and absent, in order and out
// of it, and expects the position of the assignment with the id, or no
// position, whatever the previous position given.
func TestAssignmentAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var as []domain.ReportAssignment
	at := map[int64]int{}
	for id := int64(1); id < 400; id++ {
		if rng.IntN(3) != 0 {
			at[id] = len(as)
			as = append(as, domain.ReportAssignment{ID: id})
		}
	}
	for _, ordered := range []bool{true, false} {
		prev := -1
		for n := range 1000 {
			id := int64(rng.IntN(420))
			if ordered {
				id = int64(n/2 + 1)
			}
			got, ok := assignmentAfter(as, id, prev)
			want, present := at[id]
			switch {
			case ok != present:
				t.Fatalf("id %d after %d: found %v, want %v", id, prev, ok, present)
			case ok && got != want:
				t.Fatalf("id %d after %d: position %d, want %d", id, prev, got, want)
			case !ok && got != prev:
				t.Fatalf("id %d absent: position %d, want the previous %d", id, got, prev)
			}
			prev = got
		}
	}
}
