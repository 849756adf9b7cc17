package tasks

import "math/rand/v2"

// SampleSummaryIDs picks n of ids at random, reproducibly for a seed,
// keeping their order (which groups them by document). It is how a round
// samples its summaries, from the command line and over the API alike.
func SampleSummaryIDs(ids []int64, n int, seed uint64) []int64 {
	if n <= 0 || n >= len(ids) {
		return ids
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	idx := rng.Perm(len(ids))[:n]
	keep := make(map[int]bool, n)
	for _, i := range idx {
		keep[i] = true
	}
	out := make([]int64, 0, n)
	for i, id := range ids {
		if keep[i] {
			out = append(out, id)
		}
	}
	return out
}
