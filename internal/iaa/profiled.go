package iaa

import "fmt"

// Profiled is a ratings set stored by profile: a unit's profile is which
// coders rated it and what each gave, and units with the same profile
// share one copy of it. Unit u's ratings are those of unit Of[u] of
// Profiles, whose Coders and Values are the set's. On a rating scale
// profiles are few (three coders on a five-point scale, some ratings
// missing, make at most 216), so a million units cost an int32 each.
//
// The statistics that take a Profiled ([AlphaProfiled],
// [CountStatisticsProfiled], [PairwiseCohenProfiled]) compute each
// profile's share once and then add the shares up unit by unit, in unit
// order, so their results are those of their [Coded] counterparts on
// [Profiled.Coded], exactly. Profiles need not be distinct, and a profile
// no unit has is ignored.
type Profiled struct {
	Profiles *Coded  // each profile as one unit
	Of       []int32 // the profile of each unit
}

// Coded returns the ratings with every unit's ratings spelled out.
func (p *Profiled) Coded() *Coded {
	pr := p.Profiles
	c := &Coded{Coders: pr.Coders, Values: pr.Values, Start: make([]int, len(p.Of)+1)}
	for u, k := range p.Of {
		c.Start[u+1] = c.Start[u] + pr.Start[k+1] - pr.Start[k]
	}
	n := c.Start[len(p.Of)]
	c.Coder, c.Code = make([]int32, 0, n), make([]int32, 0, n)
	for _, k := range p.Of {
		coders, codes := pr.Unit(int(k))
		c.Coder = append(c.Coder, coders...)
		c.Code = append(c.Code, codes...)
	}
	return c
}

// check panics on a profile index out of range: a programmer mistake.
func (p *Profiled) check() {
	n := int32(p.Profiles.Units())
	for u, k := range p.Of {
		if k < 0 || k >= n {
			panic(fmt.Sprintf("iaa: Profiled: unit %d has profile %d of %d", u, k, n))
		}
	}
}

// AlphaProfiled is [AlphaCoded] on a [Profiled]: each profile's
// coincidences are tallied once, then added into the coincidence matrix
// unit by unit.
func AlphaProfiled(p *Profiled, level Level) (float64, error) {
	p.check()
	c := p.Profiles
	if err := validateValues(c.Values, level); err != nil {
		return 0, err
	}
	if len(c.Values) > maxCodedValues {
		return AlphaCoded(p.Coded(), level)
	}
	co := p.coincidences()
	d, err := alphaOf(co.o, c.Values, level, make([]float64, co.v), co.units)
	if err != nil {
		return 0, err
	}
	return 1 - d.do/d.de, nil
}

// coincidences is [Coded.coincidences] of the units. A profile's terms are
// the amounts addUnit adds to each cell for one unit with that profile,
// computed with the same operations; adding them cell by cell in unit
// order rounds exactly as adding each unit's in turn does.
func (p *Profiled) coincidences() coincidence {
	c := p.Profiles
	if 4*c.Units() > len(p.Of) {
		// Few units share a profile: the terms would cost more memory
		// than they save time.
		return coincidencesOf(c, p.Of)
	}
	v := len(c.Values)
	type term struct {
		cell int
		x    float64
	}
	var terms []term
	from := make([]int, c.Units()+1) // profile k's terms are terms[from[k]:from[k+1]]
	cnt := make([]int32, v)
	var seen []int32
	for k := range c.Units() {
		_, codes := c.Unit(k)
		if m := len(codes); m >= 2 {
			seen = unitCounts(codes, cnt, seen)
			w := 1 / float64(m-1)
			for _, a := range seen {
				na := float64(cnt[a])
				for _, b := range seen {
					nb := float64(cnt[b])
					if a == b {
						nb--
					}
					terms = append(terms, term{int(a)*v + int(b), float64(w * na * nb)})
				}
			}
			for _, x := range seen {
				cnt[x] = 0
			}
		}
		from[k+1] = len(terms)
	}
	co := coincidence{v: v, o: make([]float64, v*v)}
	for _, k := range p.Of {
		_, codes := c.Unit(int(k))
		m := len(codes)
		if m < 2 {
			continue
		}
		for _, t := range terms[from[k]:from[k+1]] {
			co.o[t.cell] += t.x
		}
		co.pairs += m * (m - 1) / 2
		co.units++
	}
	return co
}

// CountStatisticsProfiled is [CountStatisticsCoded] on a [Profiled]:
// each profile's count row is tallied once, and the terms that the
// coefficients add up per unit are computed once per profile.
func CountStatisticsProfiled(p *Profiled) CountStatistics {
	p.check()
	return countStatistics(&profileRows{flat: flatten(codedRows{p.Profiles}, p.Profiles.Ratings()), of: p.Of}, 0)
}

// profileRows gives every unit the count row of its profile.
type profileRows struct {
	flat  *flatRows // one row per profile
	of    []int32
	count []int // units per profile, once computed
}

func (p *profileRows) units() int             { return len(p.of) }
func (p *profileRows) categories() int        { return p.flat.q }
func (p *profileRows) row(u int, r *countRow) { p.flat.row(int(p.of[u]), r) }

// times returns how many units have each profile.
func (p *profileRows) times() []int {
	if p.count == nil {
		p.count = profileTimes(p.of, p.flat.units())
	}
	return p.count
}

// profileTimes counts the units of each of n profiles.
func profileTimes(of []int32, n int) []int {
	t := make([]int, n)
	for _, k := range of {
		t[k]++
	}
	return t
}

// manyCodersModels is manyCodersModels over profiles: each profile's
// shares of the sums (n_ik/r_i of π_k, p_a,i, the variance terms) are
// computed once, with the same operations, and added unit by unit in
// unit order, so the sums round as they do over the units' own rows.
func (p *profileRows) manyCodersModels(models []chance, onlyM int, stats []string) []coefficientResult {
	out := make([]coefficientResult, len(models))
	keep := keepTotal(onlyM)
	s := newChanceSums(p.categories(), onlyM)
	f := p.flat
	profiles := f.units()
	kept := make([]bool, profiles)
	share := make([]float64, len(f.cats)) // n_ik/r_i, aligned with f.cats
	upa := make([]float64, profiles)
	times := p.times()
	var row countRow
	for k := range profiles {
		f.row(k, &row)
		if !keep(row.total) || times[k] == 0 {
			continue
		}
		kept[k] = true
		s.n += times[k]
		if row.total >= 2 {
			s.n2 += times[k]
		}
		for i, c := range row.cats {
			share[f.start[k]+i] = float64(row.n[i]) / float64(row.total)
			s.used[c] = true
		}
		upa[k] = unitPa(&row)
	}
	pa := 0.0
	pi, start, cats := s.pi, f.start, f.cats
	for _, k := range p.of {
		if !kept[k] {
			continue
		}
		for i := start[k]; i < start[k+1]; i++ {
			pi[cats[i]] += share[i]
		}
		pa += upa[k]
	}
	pes, ok := s.chances(models, stats, out)
	if !ok {
		return out
	}
	coefs := s.coefficients(pa, pes)
	vs := make([]float64, len(models))
	if s.n >= 2 {
		nm := len(models)
		terms := make([]float64, profiles*nm)
		for k := range profiles {
			if !kept[k] {
				continue
			}
			f.row(k, &row)
			for mi, model := range models {
				if out[mi].err == nil {
					terms[k*nm+mi] = s.unitVariance(&row, upa[k], model, pes[mi], coefs[mi])
				}
			}
		}
		// One model at a time, so that the sum stays in a register: each
		// is still added up in unit order.
		for mi := range models {
			if out[mi].err != nil {
				continue
			}
			v := 0.0
			for _, k := range p.of {
				if kept[k] {
					v += terms[int(k)*nm+mi]
				}
			}
			vs[mi] = v
		}
	}
	s.finish(out, coefs, vs)
	return out
}

// PairwiseCohenProfiled is [PairwiseCohenCoded] on a [Profiled]: each
// profile adds to the contingency tables as many counts as units have it.
func PairwiseCohenProfiled(p *Profiled, w Weighting, span float64, skipDisjoint bool) []Pair {
	p.check()
	return pairwiseCohen(p.Profiles, profileTimes(p.Of, p.Profiles.Units()), w, span, skipDisjoint)
}

// ProfilesOf returns c stored by profile, the profiles in order of first
// appearance.
func ProfilesOf(c *Coded) *Profiled {
	pr := &Coded{Coders: c.Coders, Values: c.Values, Start: []int{0}}
	p := &Profiled{Profiles: pr, Of: make([]int32, c.Units())}
	ids := map[string]int32{}
	var key []byte
	for u := range c.Units() {
		coders, codes := c.Unit(u)
		key = key[:0]
		for i, cd := range coders {
			key = fmt.Appendf(key, "%d:%d,", cd, codes[i])
		}
		id, ok := ids[string(key)]
		if !ok {
			id = int32(pr.Units())
			ids[string(key)] = id
			pr.Coder = append(pr.Coder, coders...)
			pr.Code = append(pr.Code, codes...)
			pr.Start = append(pr.Start, len(pr.Code))
		}
		p.Of[u] = id
	}
	return p
}
