package report

import "annotate/internal/iaa"

// restByUnit is againstRest's pass over the units, one unit at a time:
// it fills tallies (and vsGold, when rt has gold coded by gc) from every
// rating.
func restByUnit(rt ratings, gc goldCodes, vsGold *goldCounts, tallies []coderTally) {
	s := rt.spec
	c := rt.c
	k := len(c.Values)
	masi := s.scale == scaleMASI
	cnt := make([]int, k)
	for u := range c.Units() {
		coders, codes := c.Unit(u)
		m := len(codes)
		if rt.gold != nil {
			gold := rt.gold[u]
			// Each coder is scored against gold their label did not help
			// make: imported or adjudicated gold as it is; otherwise (gold
			// the annotators' labels made, or none yet) the strict
			// majority of the other coders of the unit, when at least two
			// others rated it.
			own := gold != gold || (rt.derived != nil && rt.derived[u])
			if own {
				for _, x := range codes {
					cnt[x]++
				}
			}
			for i, x := range codes {
				t := &tallies[coders[i]]
				ref := gc.unit[u]
				if own {
					cnt[x]--
					y, ok := strictMajority(codes, cnt)
					cnt[x]++
					if !ok {
						if gold == gold {
							t.unscored++
						}
						continue
					}
					ref = gc.rating[y]
					t.leaveOneOut++
				} else {
					t.independent++
				}
				vsGold.add(coders[i], ref, gc.rating[x], 1)
			}
			if own {
				for _, x := range codes {
					cnt[x]--
				}
			}
		}
		if m < 2 {
			continue
		}
		for _, x := range codes {
			cnt[x]++
		}
		for i, x := range codes {
			t := &tallies[coders[i]]
			if masi {
				var agree float64
				v := c.Values[x]
				for j, y := range codes {
					if j != i {
						agree += 1 - iaa.MASIDistance(v, c.Values[y])
					}
				}
				t.shares = append(t.shares, agree/float64(m-1))
				continue
			}
			t.agree(m-1, cnt[x]-1, 1)
			// The plurality of the others: their counts are the unit's
			// less this rating.
			cnt[x]--
			best, ok := plurality(codes, cnt)
			cnt[x]++
			if ok {
				t.majority(x, best, k, 1)
			}
		}
		for _, x := range codes {
			cnt[x] = 0
		}
	}
}

// plurality returns the value that more of the ratings counted in cnt
// give than any other (codes lists them, with repeats); ok is false when
// two values tie or none is counted.
func plurality(codes []int32, cnt []int) (int32, bool) {
	best, bestN, tie := int32(-1), 0, false
	for _, y := range codes {
		switch n := cnt[y]; {
		case n > bestN:
			best, bestN, tie = y, n, false
		case n == bestN && y != best:
			tie = true
		}
	}
	return best, !tie && best >= 0
}
