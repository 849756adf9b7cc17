package testkit

import (
	"math/rand/v2"

	"annotate/internal/iaa"
)

// TwoValueStudy draws units rated by coders on a two-valued label (0 and
// 1), for simulations of how intervals cover: a unit's truth is 1 with
// probability prev, and each coder gives the truth with probability acc
// and the other value otherwise. The draws are, for each unit in turn, its
// truth and then each coder's rating, so a seed gives the same study.
func TwoValueStudy(rng *rand.Rand, units, coders int, prev, acc float64) *iaa.Ratings {
	r := iaa.NewRatings(units, coders)
	for u := range units {
		truth := 0.0
		if rng.Float64() < prev {
			truth = 1
		}
		for c := range coders {
			v := truth
			if rng.Float64() >= acc {
				v = 1 - truth
			}
			r.Set(u, c, v)
		}
	}
	return r
}
