package report

// restByTally is whether againstRest tallies units where it can (see
// restTallied); tests turn it off to compare the two passes.
var restByTally = true

// maxRestTallies bounds the counters restTallied keeps.
const maxRestTallies = 1 << 20

// restTallied is restByUnit for units of at most three ratings, values
// other than sets: what a rating adds to its coder's tallies depends only
// on the coder, its value, the other values of its unit and the unit's
// gold (its code and whether the annotators' labels made it), so the
// ratings are counted by those in one pass and each count's additions
// made once, times the count. It reports false, having changed nothing,
// when a unit has more ratings or the counters would be too many.
func restTallied(rt ratings, gc goldCodes, vsGold *goldCounts, tallies []coderTally) bool {
	c := rt.c
	k := len(c.Values)
	// The others of a rating: none (0), one value y (1 + y), or two
	// values y ≤ z (1 + k + y·k + z).
	others := 1 + k + k*k
	// The unit's gold: 0 without gold in the dimension; else 1 + 2·(1 +
	// its code, 0 for none) + whether it is derived.
	golds := 1
	if rt.gold != nil {
		golds = 1 + 2*(1+len(gc.values))
	}
	size := c.Coders * k * others * golds
	if size > maxRestTallies || size <= 0 {
		return false
	}
	// Counted first, apart from tallies, so that a unit of more ratings
	// found on the way leaves them untouched.
	count := make([]int, size)
	for u := range c.Units() {
		coders, codes := c.Unit(u)
		if len(codes) > 3 {
			return false
		}
		g := 0
		if rt.gold != nil {
			g = 1 + 2*int(gc.unit[u]+1)
			if rt.derived != nil && rt.derived[u] {
				g++
			}
		}
		for i, x := range codes {
			o := 0
			switch len(codes) {
			case 2:
				o = 1 + int(codes[1-i])
			case 3:
				y, z := int(codes[(i+1)%3]), int(codes[(i+2)%3])
				if y > z {
					y, z = z, y
				}
				o = 1 + k + y*k + z
			}
			count[((int(coders[i])*k+int(x))*others+o)*golds+g]++
		}
	}
	cnt := make([]int, k)
	var codes [3]int32
	for i, n := range count {
		if n == 0 {
			continue
		}
		g := i % golds
		rest := i / golds
		o := rest % others
		rest /= others
		x := int32(rest % k)
		j := int32(rest / k)
		// The unit's values, the rating's first.
		codes[0] = x
		m := 1
		switch {
		case o > k:
			codes[1], codes[2] = int32((o-1-k)/k), int32((o-1-k)%k)
			m = 3
		case o > 0:
			codes[1] = int32(o - 1)
			m = 2
		}
		unit := codes[:m]
		t := &tallies[j]
		if g > 0 {
			ref := int32((g-1)/2) - 1 // the gold's code, −1 for none
			derived := (g-1)%2 == 1
			if ref < 0 || derived {
				// Scored against the strict majority of the others:
				// with two others, their value when they agree.
				if m == 3 && unit[1] == unit[2] {
					t.leaveOneOut += n
					vsGold.add(j, gc.rating[unit[1]], gc.rating[x], n)
				} else if ref >= 0 {
					t.unscored += n
				}
			} else {
				t.independent += n
				vsGold.add(j, ref, gc.rating[x], n)
			}
		}
		if m < 2 {
			continue
		}
		for _, y := range unit[1:] {
			cnt[y]++
		}
		t.agree(m-1, cnt[x], n)
		if best, ok := plurality(unit[1:], cnt); ok {
			t.majority(x, best, k, n)
		}
		for _, y := range unit[1:] {
			cnt[y] = 0
		}
	}
	return true
}
