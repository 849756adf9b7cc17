package iaa

import "slices"

// OtherThanMostCommon returns the number of ratings on units with two or
// more ratings whose value is not the most common value among those
// ratings: for a two-valued label, how often the rarer value was given.
// Below about 20 the large-sample and bootstrap intervals of the
// coefficients whose chance term rests on the rare value (α, Cohen's and
// Fleiss' κ, Scott's π) are too narrow (TestRareValueIntervalCoverage).
func OtherThanMostCommon(c *Coded) int { return otherThanMostCommon(c, nil) }

// OtherThanMostCommonProfiled is [OtherThanMostCommon] on a [Profiled].
func OtherThanMostCommonProfiled(p *Profiled) int {
	times := make([]int, p.Profiles.Units())
	for _, k := range p.Of {
		times[k]++
	}
	return otherThanMostCommon(p.Profiles, times)
}

// otherThanMostCommon counts unit u of c times[u] times (once when times
// is nil).
func otherThanMostCommon(c *Coded, times []int) int {
	if len(c.Values) == 0 {
		return 0
	}
	counts := make([]int, len(c.Values))
	total := 0
	for u := range c.Units() {
		_, codes := c.Unit(u)
		if len(codes) < 2 {
			continue
		}
		w := 1
		if times != nil {
			w = times[u]
		}
		for _, k := range codes {
			counts[k] += w
		}
		total += w * len(codes)
	}
	return total - slices.Max(counts)
}
