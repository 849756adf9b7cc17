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
