package iaa

import "fmt"

// maxCodedValues bounds the distinct values whose coincidence matrix
// (values² numbers) the coincidence-based statistics build; data with more
// distinct values (continuous measurements) take the matrix-based paths.
const maxCodedValues = 1024

// coincidence is Krippendorff's coincidence matrix over the values of a
// [Coded]: o[c*v+k] = Σ_u n_uc(n_uk − [c=k])/(m_u − 1) over the units with
// m_u ≥ 2 ratings, n_uc of them equal to value c.
type coincidence struct {
	v     int
	o     []float64
	pairs int // within-unit pairs Σ m_u(m_u−1)/2
	units int // units with two or more ratings
}

// unitCounts tallies one unit's codes into cnt (indexed by code, zero on
// entry) and lists the distinct codes in seen; the caller clears cnt.
func unitCounts(codes []int32, cnt []int32, seen []int32) []int32 {
	seen = seen[:0]
	for _, k := range codes {
		if cnt[k] == 0 {
			seen = append(seen, k)
		}
		cnt[k]++
	}
	return seen
}

// addUnit adds sign × the coincidences of a unit with m ratings, counted
// by value in cnt over the distinct codes seen.
func addUnit(o []float64, v int, seen, cnt []int32, m int, sign float64) {
	if m < 2 {
		return
	}
	w := sign / float64(m-1)
	for _, a := range seen {
		na := float64(cnt[a])
		if na == 0 {
			continue
		}
		row := o[int(a)*v:]
		for _, b := range seen {
			nb := float64(cnt[b])
			if a == b {
				nb--
			}
			// Rounded before the sum (no fused multiply-add), as the
			// terms of Profiled.coincidences are.
			row[b] += float64(w * na * nb)
		}
	}
}

func (c *Coded) coincidences() coincidence { return coincidencesOf(c, nil) }

// coincidencesOf is the coincidence matrix of the units of c listed in
// units, in that order, or of every unit of c when units is nil.
func coincidencesOf(c *Coded, units []int32) coincidence {
	v, n := len(c.Values), len(units)
	if units == nil {
		n = c.Units()
	}
	// Tallies cost v³ counters: worth it for a few values and many units.
	if v <= maxTalliedValues && n >= v*v*v {
		if co, ok := coincidencesTallied(c, units); ok {
			return co
		}
	}
	return coincidencesByUnit(c, units)
}

// coincidencesByUnit is coincidencesOf adding each unit's coincidences
// in turn.
func coincidencesByUnit(c *Coded, units []int32) coincidence {
	v := len(c.Values)
	co := coincidence{v: v, o: make([]float64, v*v)}
	cnt := make([]int32, v)
	var seen []int32
	n := len(units)
	if units == nil {
		n = c.Units()
	}
	for i := range n {
		u := i
		if units != nil {
			u = int(units[i])
		}
		_, codes := c.Unit(u)
		m := len(codes)
		if m < 2 {
			continue
		}
		seen = unitCounts(codes, cnt, seen)
		addUnit(co.o, v, seen, cnt, m, 1)
		clearCounts(cnt, seen)
		co.pairs += m * (m - 1) / 2
		co.units++
	}
	return co
}

// maxTalliedValues is the most distinct values for which coincidencesOf
// tallies units by their values.
const maxTalliedValues = 32

// coincidencesTallied is coincidencesOf for units of at most three
// ratings: the units are tallied by their sorted values, in one pass, and
// each tally's coincidences added once, times its count, which gives the
// same matrix bit for bit (see alphaWithoutTallied). ok is false, and
// nothing is computed, when a unit has more than three ratings.
func coincidencesTallied(c *Coded, units []int32) (co coincidence, ok bool) {
	v := len(c.Values)
	n := len(units)
	if units == nil {
		n = c.Units()
	}
	// pair[x·v + y] counts the units of two values x ≤ y, triple[(x·v +
	// y)·v + z] those of three values x ≤ y ≤ z.
	pair := make([]int, v*v)
	triple := make([]int, v*v*v)
	for i := range n {
		u := i
		if units != nil {
			u = int(units[i])
		}
		lo, hi := c.Start[u], c.Start[u+1]
		switch hi - lo {
		case 0, 1:
		case 2:
			x, y := c.Code[lo], c.Code[lo+1]
			if x > y {
				x, y = y, x
			}
			pair[int(x)*v+int(y)]++
		case 3:
			x, y, z := c.Code[lo], c.Code[lo+1], c.Code[lo+2]
			if x > y {
				x, y = y, x
			}
			if y > z {
				y, z = z, y
			}
			if x > y {
				x, y = y, x
			}
			triple[(int(x)*v+int(y))*v+int(z)]++
		default:
			return coincidence{}, false
		}
	}
	co = coincidence{v: v, o: make([]float64, v*v)}
	cnt := make([]int32, v)
	var seen []int32
	var codes [3]int32
	add := func(m, n int) {
		seen = unitCounts(codes[:m], cnt, seen)
		addUnit(co.o, v, seen, cnt, m, float64(n))
		clearCounts(cnt, seen)
		co.pairs += n * m * (m - 1) / 2
		co.units += n
	}
	for x := range v {
		for y := x; y < v; y++ {
			if n := pair[x*v+y]; n > 0 {
				codes[0], codes[1] = int32(x), int32(y)
				add(2, n)
			}
			for z := y; z < v; z++ {
				if n := triple[(x*v+y)*v+z]; n > 0 {
					codes[0], codes[1], codes[2] = int32(x), int32(y), int32(z)
					add(3, n)
				}
			}
		}
	}
	return co, true
}

// deltas returns δ²(c, k) between every two values at the level, with the
// ordinal ranks taken from the marginals nc.
func deltas(values []float64, nc []float64, level Level) []float64 {
	v := len(values)
	d := make([]float64, v*v)
	var rank []float64
	if level == Ordinal {
		rank = make([]float64, v)
		below := 0.0
		for i, n := range nc {
			rank[i] = below + n/2
			below += n
		}
	}
	for i, a := range values {
		for j, b := range values {
			if i == j {
				continue
			}
			var x float64
			switch level {
			case Nominal:
				x = 1
			case Ordinal:
				x = (rank[i] - rank[j]) * (rank[i] - rank[j])
			case Interval:
				x = (a - b) * (a - b)
			case Ratio:
				x = ratioDelta(a, b)
			case MASI:
				x = MASIDistance(a, b)
			default:
				panic(fmt.Sprintf("iaa: unknown Level %d", int(level)))
			}
			d[i*v+j] = x
		}
	}
	return d
}

// alphaOf computes D_o and D_e from a coincidence matrix o over values:
//
//	n_c = Σ_k o_ck,  D_o = (1/n) Σ_ck o_ck δ²_ck,  D_e = (1/(n(n−1))) Σ_ck n_c n_k δ²_ck
//
// with scratch nc of length v.
func alphaOf(o []float64, values []float64, level Level, nc []float64, units int) (disagreement, error) {
	v := len(values)
	n := 0.0
	for k := range nc {
		nc[k] = 0
	}
	for c := range v {
		for k := range v {
			nc[k] += o[c*v+k]
		}
	}
	for _, x := range nc {
		n += x
	}
	d := disagreement{units: units}
	d.n = int(n + 0.5)
	if d.n < 2 {
		d.n = 0
		return d.check()
	}
	dl := deltas(values, nc, level)
	for i, x := range o {
		d.do += x * dl[i]
	}
	for c := range v {
		for k := range v {
			d.de += nc[c] * nc[k] * dl[c*v+k]
		}
	}
	d.do /= n
	d.de /= n * (n - 1)
	return d.check()
}

// AlphaCoded is [Alpha] on a [Coded], computed from the coincidence
// matrix (Krippendorff 2011, section C): O(ratings + values²) time for
// data with up to 1,024 distinct values, and the matrix-based [Alpha]
// beyond.
func AlphaCoded(c *Coded, level Level) (float64, error) {
	d, err := codedDisagreements(c, level)
	if err != nil {
		return 0, err
	}
	return 1 - d.do/d.de, nil
}

func codedDisagreements(c *Coded, level Level) (disagreement, error) {
	if err := validateValues(c.Values, level); err != nil {
		return disagreement{}, err
	}
	if len(c.Values) > maxCodedValues {
		return disagreements(c.Dense(), level)
	}
	co := c.coincidences()
	d, err := alphaOf(co.o, c.Values, level, make([]float64, co.v), co.units)
	d.pairs = co.pairs
	return d, err
}

// validateValues rejects values the level cannot take.
func validateValues(values []float64, level Level) error {
	r := &Ratings{Units: len(values), Coders: 1, Values: values}
	return validate(r, level)
}

// Without is α of a group of coders without one of them.
type Without struct {
	Alpha float64
	Err   error // an [*UndefinedError] when α is undefined without the coder
}

// AlphaWithout computes, for every coder j, Krippendorff's α of the data
// without coder j's ratings: the figure that shows whether a coder lowers
// agreement. Removing j changes only the units j rated, so the coincidence
// matrix without j is that of all the data plus, for each unit j rated,
// the unit's coincidences without j minus those with j. The cost is
// O(ratings × distinct values in a unit² + coders × values²), not one α
// per coder over the whole data. With fewer than three coders every entry
// is undefined (at most one coder would remain).
func AlphaWithout(c *Coded, level Level) []Without {
	out := make([]Without, c.Coders)
	if c.Coders < 3 {
		for j := range out {
			out[j].Err = undefined(alphaStat, "needs at least two other coders")
		}
		return out
	}
	if err := validateValues(c.Values, level); err != nil {
		for j := range out {
			out[j].Err = err
		}
		return out
	}
	if len(c.Values) > maxCodedValues {
		r := c.Dense()
		for j := range out {
			rest := NewRatings(r.Units, r.Coders-1)
			for u := range r.Units {
				row := r.Unit(u)
				copy(rest.Unit(u), row[:j])
				copy(rest.Unit(u)[j:], row[j+1:])
			}
			out[j].Alpha, out[j].Err = Alpha(rest, level)
		}
		return out
	}
	v := len(c.Values)
	base := c.coincidences()
	if c.Coders*v*v*(v+1) <= maxWithoutCells {
		if out, ok := alphaWithoutTallied(c, level, base, out); ok {
			return out
		}
	}
	if c.Coders*v*v <= maxWithoutCells {
		return alphaWithoutOnePass(c, level, base, out)
	}
	return alphaWithoutByCoder(c, level, base, out)
}

// alphaWithoutTallied is AlphaWithout for data whose units have at most
// three ratings, as most reports' do (two or three annotators an item).
// What removing coder j's rating x from a unit changes in j's matrix
// depends only on j, x and the unit's other values, so the ratings are
// tallied by those (a counter each, in one pass over the units) and each
// tally's change is added once, times its count. That gives the matrices
// of alphaWithoutOnePass bit for bit: with m ≤ 3 ratings a unit, every
// term w·n_a·n_b, whose weight w is ±1/(m−1), is a whole multiple of ½,
// and so is every sum of them (short of 2⁵²), in whatever order it is
// added. ok is false, and out untouched, when a unit has more ratings.
func alphaWithoutTallied(c *Coded, level Level, base coincidence, out []Without) (_ []Without, ok bool) {
	v := len(c.Values)
	cells := v * v
	// pair[(j·v + x)·v + y] counts the units of two ratings where j gave
	// x and the other gave y; triple[((j·v + x)·v + y)·v + z] those of
	// three where j gave x and the others y ≤ z.
	pair := make([]int, c.Coders*cells)
	triple := make([]int, c.Coders*cells*v)
	for u := range c.Units() {
		coders, codes := c.Unit(u)
		switch len(codes) {
		case 2:
			j, k, x, y := int(coders[0]), int(coders[1]), int(codes[0]), int(codes[1])
			pair[(j*v+x)*v+y]++
			pair[(k*v+y)*v+x]++
		case 3:
			for i := range 3 {
				x, y, z := int(codes[i]), int(codes[(i+1)%3]), int(codes[(i+2)%3])
				if y > z {
					y, z = z, y
				}
				triple[((int(coders[i])*v+x)*v+y)*v+z]++
			}
		default:
			if len(codes) > 3 {
				return out, false
			}
		}
	}
	o := make([]float64, cells)
	nc := make([]float64, v)
	cnt := make([]int32, v)
	var seen []int32
	var codes [3]int32
	for j := range out {
		copy(o, base.o)
		units := base.units
		for x := range v {
			for y := range v {
				n := pair[(j*v+x)*v+y]
				if n == 0 {
					continue
				}
				// The unit is no longer pairable without j.
				units -= n
				codes[0], codes[1] = int32(x), int32(y)
				seen = unitCounts(codes[:2], cnt, seen)
				addUnit(o, v, seen, cnt, 2, -float64(n))
				clearCounts(cnt, seen)
			}
		}
		for x := range v {
			for y := range v {
				for z := y; z < v; z++ {
					n := triple[((j*v+x)*v+y)*v+z]
					if n == 0 {
						continue
					}
					codes[0], codes[1], codes[2] = int32(x), int32(y), int32(z)
					seen = unitCounts(codes[:3], cnt, seen)
					addUnit(o, v, seen, cnt, 3, -float64(n))
					cnt[x]--
					addUnit(o, v, seen, cnt, 2, float64(n))
					cnt[x]++
					clearCounts(cnt, seen)
				}
			}
		}
		out[j] = withoutOf(o, c.Values, level, nc, units)
	}
	return out, true
}

// withoutOf is α from the coincidence matrix o of the data without a
// coder, with its pairable units (nc is scratch; see alphaOf).
func withoutOf(o, values []float64, level Level, nc []float64, units int) Without {
	d, err := alphaOf(o, values, level, nc, units)
	if err != nil {
		return Without{Err: err}
	}
	return Without{Alpha: 1 - d.do/d.de}
}

// clearCounts zeroes the counts unitCounts made of the codes in seen.
func clearCounts(cnt, seen []int32) {
	for _, k := range seen {
		cnt[k] = 0
	}
}

// alphaWithoutByCoder is AlphaWithout one coder at a time, reusing one
// matrix: for many coders with many values.
func alphaWithoutByCoder(c *Coded, level Level, base coincidence, out []Without) []Without {
	v := len(c.Values)
	// The ratings of each coder, by position, in unit order.
	perCoder := make([]int, c.Coders)
	for _, cd := range c.Coder {
		perCoder[cd]++
	}
	byCoder := make([][]int32, c.Coders)
	for j, n := range perCoder {
		byCoder[j] = make([]int32, 0, n)
	}
	unitOf := make([]int32, len(c.Code))
	for u := range c.Units() {
		for i := c.Start[u]; i < c.Start[u+1]; i++ {
			unitOf[i] = int32(u)
			byCoder[c.Coder[i]] = append(byCoder[c.Coder[i]], int32(i))
		}
	}
	o := make([]float64, v*v)
	nc := make([]float64, v)
	cnt := make([]int32, v)
	var seen []int32
	for j := range out {
		copy(o, base.o)
		units := base.units
		for _, i := range byCoder[j] {
			u := int(unitOf[i])
			_, codes := c.Unit(u)
			m := len(codes)
			if m == 2 {
				units--
			}
			seen = unitCounts(codes, cnt, seen)
			addUnit(o, v, seen, cnt, m, -1)
			cnt[c.Code[i]]--
			addUnit(o, v, seen, cnt, m-1, 1)
			clearCounts(cnt, seen)
		}
		out[j] = withoutOf(o, c.Values, level, nc, units)
	}
	return out
}

// maxWithoutCells bounds the cells of the coincidence matrices, one per
// coder, that alphaWithoutOnePass keeps at once.
const maxWithoutCells = 1 << 20

// alphaWithoutOnePass is AlphaWithout with every coder's matrix held at
// once, so that the units are read once, in order, and each unit's value
// counts are tallied once rather than once per rating. Each coder's
// matrix receives the same additions in the same order as when the
// coders are taken one at a time, so the results are identical.
func alphaWithoutOnePass(c *Coded, level Level, base coincidence, out []Without) []Without {
	v := len(c.Values)
	cells := v * v
	o := make([]float64, c.Coders*cells)
	units := make([]int, c.Coders)
	for j := range c.Coders {
		copy(o[j*cells:(j+1)*cells], base.o)
		units[j] = base.units
	}
	cnt := make([]int32, v)
	var seen []int32
	for u := range c.Units() {
		coders, codes := c.Unit(u)
		m := len(codes)
		if m == 0 {
			continue
		}
		seen = unitCounts(codes, cnt, seen)
		for i, j := range coders {
			oj := o[int(j)*cells : (int(j)+1)*cells]
			if m == 2 {
				units[j]--
			}
			addUnit(oj, v, seen, cnt, m, -1)
			cnt[codes[i]]--
			addUnit(oj, v, seen, cnt, m-1, 1)
			cnt[codes[i]]++
		}
		clearCounts(cnt, seen)
	}
	nc := make([]float64, v)
	for j := range out {
		out[j] = withoutOf(o[j*cells:(j+1)*cells], c.Values, level, nc, units[j])
	}
	return out
}
