package experiment

import (
	"math/rand/v2"
)

// ParticipantCondition returns the condition of the participant who
// entered the study n-th (from 0), randomised by participant with
// permuted blocks: each block of len(conditions) consecutive entrants
// gets every condition once, in an order drawn from a PCG generator
// seeded with (seed, block). Conditions stay balanced within one block
// at any time, and the same seed and entry order give the same
// assignment.
func ParticipantCondition(seed uint64, n, conditions int) int {
	if conditions <= 0 || n < 0 {
		panic("experiment: ParticipantCondition needs conditions > 0 and n >= 0")
	}
	block := uint64(n / conditions)
	perm := rand.New(rand.NewPCG(seed, block)).Perm(conditions)
	return perm[n%conditions]
}

// ItemCondition returns the condition in which the slot-th participant
// (from 0) to be dealt item sees it, randomised by item. Conditions
// follow a cyclic Latin square, rows items and columns slots, whose
// condition order is drawn from the seed: when k, the number of
// participants per item, is a multiple of the number of conditions, every
// item is seen in every condition equally often, and consecutive items
// dealt in the same slot rotate through the conditions.
func ItemCondition(seed uint64, item, slot, conditions int) int {
	if conditions <= 0 || item < 0 || slot < 0 {
		panic("experiment: ItemCondition needs conditions > 0 and item, slot >= 0")
	}
	order := rand.New(rand.NewPCG(seed, 1<<62)).Perm(conditions)
	return order[(item+slot)%conditions]
}

// ItemConditionFor returns the condition in which an item is dealt next,
// randomised by item, given how many of its live assignments (released
// ones aside) each condition has: the first condition, in the item's row
// of the Latin square of ItemCondition (slots 0, 1, …), that has the
// fewest. Without releases this is ItemCondition(seed, item, slot) for
// the next slot; after a release the next participant fills the condition
// that was given back, so the item stays counterbalanced.
func ItemConditionFor(seed uint64, item int, counts []int) int {
	conditions := len(counts)
	if conditions == 0 || item < 0 {
		panic("experiment: ItemConditionFor needs conditions and item >= 0")
	}
	best := -1
	for slot := range conditions {
		c := ItemCondition(seed, item, slot, conditions)
		if best < 0 || counts[c] < counts[best] {
			best = c
		}
	}
	return best
}
