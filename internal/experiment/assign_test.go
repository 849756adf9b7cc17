package experiment

import "testing"

// TestParticipantConditionBlocks checks that each block of entrants gets
// every condition once, that the orders vary between blocks, and that the
// same seed reproduces them.
func TestParticipantConditionBlocks(t *testing.T) {
	const conds = 3
	orders := map[[conds]int]bool{}
	for block := range 40 {
		var seen [conds]bool
		var order [conds]int
		for j := range conds {
			c := ParticipantCondition(42, block*conds+j, conds)
			if c != ParticipantCondition(42, block*conds+j, conds) {
				t.Fatal("not reproducible")
			}
			if seen[c] {
				t.Fatalf("block %d gives condition %d twice", block, c)
			}
			seen[c] = true
			order[j] = c
		}
		orders[order] = true
	}
	if len(orders) < 4 {
		t.Fatalf("only %d distinct block orders in 40 blocks", len(orders))
	}
	differs := false
	for n := range 30 {
		if ParticipantCondition(42, n, conds) != ParticipantCondition(43, n, conds) {
			differs = true
		}
	}
	if !differs {
		t.Fatal("seeds 42 and 43 give the same assignment")
	}
}

// TestItemConditionLatinSquare checks that with k a multiple of the
// number of conditions every item is seen in each condition k/C times.
func TestItemConditionLatinSquare(t *testing.T) {
	for _, tc := range []struct{ conds, k int }{{3, 3}, {3, 6}, {4, 4}, {2, 6}} {
		for item := range 50 {
			n := make([]int, tc.conds)
			for slot := range tc.k {
				n[ItemCondition(7, item, slot, tc.conds)]++
			}
			for c, v := range n {
				if v != tc.k/tc.conds {
					t.Fatalf("%d conditions, k=%d: item %d seen %d times in condition %d", tc.conds, tc.k, item, v, c)
				}
			}
		}
	}
}

// TestItemConditionForFillsTheLatinSquare deals items slot by slot with
// ItemConditionFor and checks it follows ItemCondition, then gives back
// one assignment and checks the next participant gets its condition.
func TestItemConditionForFillsTheLatinSquare(t *testing.T) {
	const conditions, k = 3, 6
	for item := range 50 {
		counts := make([]int, conditions)
		for slot := range k {
			c := ItemConditionFor(7, item, counts)
			if want := ItemCondition(7, item, slot, conditions); c != want {
				t.Fatalf("item %d slot %d: condition %d, want the Latin square's %d", item, slot, c, want)
			}
			counts[c]++
		}
		for c, n := range counts {
			if n != k/conditions {
				t.Fatalf("item %d: condition %d dealt %d times, want %d", item, c, n, k/conditions)
			}
		}
		gone := ItemCondition(7, item, 4, conditions)
		counts[gone]--
		if c := ItemConditionFor(7, item, counts); c != gone {
			t.Fatalf("item %d: after giving back condition %d, the next is dealt %d", item, gone, c)
		}
	}
}
