package iaa

// PercentAgreement is the proportion of agreeing pairs of ratings within
// units, averaged over the units with at least two ratings:
//
//	p_a = (1/n₂) Σ_{r_i≥2} Σ_k n_ik(n_ik−1) / (r_i(r_i−1))
//
// For two coders it is the share of units on which they agree. The standard
// error is Gwet's (2014), computed over all units with a rating.
// Undefined when no unit has two ratings.
func PercentAgreement(c Counts) (Coefficient, error) {
	return manyCoders(c, chanceNone, 0, "percent agreement")
}

// UnanimousAgreement is the share of units, among those with at least two
// ratings, on which every rating is the same (irr's agree() with tolerance
// 0). It returns the share and the number of units with two ratings, or an
// [*UndefinedError] when there are none.
func UnanimousAgreement(c Counts) (share float64, units int, err error) {
	c.check()
	all := 0
	for u := range c.Units {
		row := c.Row(u)
		r := sum(row)
		if r < 2 {
			continue
		}
		units++
		for _, x := range row {
			if x == r {
				all++
				break
			}
		}
	}
	if units == 0 {
		return 0, 0, undefined("unanimous agreement", reasonNoPairable)
	}
	return float64(all) / float64(units), units, nil
}
