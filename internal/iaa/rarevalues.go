package iaa

import "slices"

// RareCount says how the ratings on units with two or more ratings spread
// over the values: how many are not the most common value, of how many
// ratings on how many units. For a two-valued label Other is how often the
// rarer value was given. With few such ratings the large-sample and
// bootstrap intervals of the coefficients whose chance term rests on the
// rare value (α, Cohen's and Fleiss' κ, Scott's π) are too narrow
// (TestRareValueIntervalCoverage).
type RareCount struct {
	Other   int // pairable ratings that are not the most common value
	Ratings int // ratings on units with two or more ratings
	Units   int // units with two or more ratings
}

// PerUnit is the mean number of ratings on a unit with two or more, 0 for
// no such unit.
func (r RareCount) PerUnit() float64 {
	if r.Units == 0 {
		return 0
	}
	return float64(r.Ratings) / float64(r.Units)
}

// RareCountOf counts c's pairable ratings (see [RareCount]).
func RareCountOf(c *Coded) RareCount { return rareCount(c, nil) }

// RareCountOfProfiled is [RareCountOf] on a [Profiled].
func RareCountOfProfiled(p *Profiled) RareCount {
	times := make([]int, p.Profiles.Units())
	for _, k := range p.Of {
		times[k]++
	}
	return rareCount(p.Profiles, times)
}

// rareCount counts unit u of c times[u] times (once when times is nil).
func rareCount(c *Coded, times []int) RareCount {
	var r RareCount
	if len(c.Values) == 0 {
		return r
	}
	counts := make([]int, len(c.Values))
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
		r.Ratings += w * len(codes)
		r.Units += w
	}
	r.Other = r.Ratings - slices.Max(counts)
	return r
}
