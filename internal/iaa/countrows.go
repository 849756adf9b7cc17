package iaa

// Units with the same count row (the same multiset of values, whoever
// gave them) add the same terms to the count statistics. With a few
// coders a unit and a few values, rows are few: three ratings on a
// binary label make four. countProfiles groups the units by row so that
// those terms are computed once a row and added up unit by unit, in unit
// order, as [profileRows] does.

// maxPackedRatings is the most ratings a unit may have for its count row
// to be packed into one 64-bit key, a byte a rating.
const maxPackedRatings = 7

// countProfiles returns the units of c grouped by count row, or nil when
// a unit's row does not fit a key (more than maxPackedRatings ratings or
// a value code above 254) or when rows are so varied (over a quarter as
// many as units) that grouping would cost more than it saves.
func countProfiles(c *Coded) *profileRows {
	units := c.Units()
	if units == 0 {
		return nil
	}
	ids := map[uint64]int32{}
	of := make([]int32, units)
	f := &flatRows{q: len(c.Values), start: []int{0}}
	var sorted [maxPackedRatings]int32
	// Units of two or three ratings, with few values, find their row in
	// a table by their values once it is known (see valuesKey).
	v := len(c.Values)
	var known []int32 // 1 + the row, 0 while unknown
	if kindTable && v <= maxTalliedValues && units >= v*v*v {
		known = make([]int32, v*v*(v+1))
	}
	for u := range units {
		_, codes := c.Unit(u)
		m := len(codes)
		if m > maxPackedRatings {
			return nil
		}
		dk := -1
		if known != nil && (m == 2 || m == 3) {
			dk = valuesKey(codes, v)
			if id := known[dk]; id > 0 {
				of[u] = id - 1
				continue
			}
		}
		s := sorted[:m]
		copy(s, codes)
		for i := 1; i < m; i++ {
			for j := i; j > 0 && s[j] < s[j-1]; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
		var key uint64
		for _, k := range s {
			if k < 0 || k >= 255 {
				return nil
			}
			key = key<<8 | uint64(k+1)
		}
		id, ok := ids[key]
		if !ok {
			id = int32(len(f.start) - 1)
			ids[key] = id
			for i := 0; i < m; {
				j := i
				for j < m && s[j] == s[i] {
					j++
				}
				f.cats = append(f.cats, s[i])
				f.n = append(f.n, int32(j-i))
				i = j
			}
			f.start = append(f.start, len(f.cats))
			if 4*len(ids) > units {
				return nil
			}
		}
		of[u] = id
		if dk >= 0 {
			known[dk] = id + 1
		}
	}
	return &profileRows{flat: f, of: of}
}
