package iaa

// chance selects the chance-agreement model of a many-coder coefficient.
type chance int

const (
	chanceNone   chance = iota // percent agreement: p_e = 0
	chanceFleiss               // p_e = Σ π_k²  (Fleiss' κ / Scott's π)
	chanceGwet                 // p_e = Σ π_k(1−π_k)/(q−1)  (Gwet's AC1)
)

// manyCoders computes (p_a − p_e)/(1 − p_e) from counts with any number of
// ratings per unit, with Gwet's (2008; 2014) linearised variance.
// Only units whose rating total is onlyM enter when onlyM > 0.
//
// With r_i ratings of unit i, n_ik of them in category k, n the units with
// r_i ≥ 1 and n₂ those with r_i ≥ 2:
//
//	p_a = (1/n₂) Σ_{r_i≥2} Σ_k n_ik(n_ik−1) / (r_i(r_i−1))
//	π_k = (1/n) Σ_i n_ik / r_i
//
// and the variance is (1/(n(n−1))) Σ_i (c*_i − c)², where
// c_i = (n/n₂)(p_a,i − p_e·[r_i≥2])/(1−p_e) and
// c*_i = c_i − 2(1−c)(p_e,i − p_e)/(1−p_e), p_e,i being unit i's share of p_e.
func manyCoders(c Counts, model chance, onlyM int, stat string) (Coefficient, error) {
	c.check()
	return manyCodersRows(countsRows(c), model, onlyM, stat)
}

// manyCodersRows is manyCoders over any source of count rows. Zero counts
// add nothing to any sum, so sparse rows give the dense result exactly.
func manyCodersRows(c countRows, model chance, onlyM int, stat string) (Coefficient, error) {
	r := manyCodersModels(c, []chance{model}, onlyM, []string{stat})[0]
	return r.c, r.err
}

type coefficientResult struct {
	c   Coefficient
	err error
}

// manyCodersModels is manyCoders for several chance models at once: p_a,
// π_k and the unit counts are shared, so the units are read three times in
// all rather than three times per model. Each model's result is computed
// with the same operations, in the same order, as on its own. Rows that
// units share ([profileRows]) are handled by profileRows.manyCodersModels,
// which gives the same results.
func manyCodersModels(c countRows, models []chance, onlyM int, stats []string) []coefficientResult {
	if p, ok := c.(*profileRows); ok {
		return p.manyCodersModels(models, onlyM, stats)
	}
	out := make([]coefficientResult, len(models))
	keep := keepTotal(onlyM)
	s := newChanceSums(c.categories(), onlyM)
	var row countRow
	for u := range c.units() {
		if c.row(u, &row); keep(row.total) {
			s.add(&row)
		}
	}
	pes, ok := s.chances(models, stats, out)
	if !ok {
		return out
	}
	pa := 0.0
	for u := range c.units() {
		c.row(u, &row)
		if keep(row.total) {
			pa += unitPa(&row)
		}
	}
	coefs := s.coefficients(pa, pes)
	vs := make([]float64, len(models))
	if s.n >= 2 {
		for u := range c.units() {
			c.row(u, &row)
			if !keep(row.total) {
				continue
			}
			upa := unitPa(&row)
			for mi, model := range models {
				if out[mi].err != nil {
					continue
				}
				vs[mi] += s.unitVariance(&row, upa, model, pes[mi], coefs[mi])
			}
		}
	}
	s.finish(out, coefs, vs)
	return out
}

// pairableUnits, given as onlyM, keeps the units with two or more
// ratings only: a unit with one rating then adds nothing to π_k either.
const pairableUnits = -1

// keepTotal says which units enter: those with a rating, with exactly
// onlyM ratings when onlyM > 0, and with two or more when onlyM is
// pairableUnits.
func keepTotal(onlyM int) func(int) bool {
	if onlyM == pairableUnits {
		return func(r int) bool { return r >= 2 }
	}
	return func(r int) bool { return r >= 1 && (onlyM == 0 || r == onlyM) }
}

// chanceSums holds what the many-coder coefficients add up over the units
// before their chance agreement is known: n, n₂ and π_k (Σ n_ik/r_i until
// chances divides by n).
type chanceSums struct {
	q, n, n2 int
	pi       []float64
	used     []bool
	// usedQ makes q, Gwet's number of categories, the categories the
	// units that enter used, rather than every category column: so it is
	// when only the pairable units enter (see newChanceSums).
	usedQ bool
}

// newChanceSums sums over q category columns for units kept by onlyM (see
// keepTotal). When onlyM is pairableUnits, AC1's q is the number of
// categories the pairable units use, as its π_k come from them alone: a
// value given only on units rated once changes neither, and the result is
// AC1 on the pairable units alone, as irrCAC computes it without
// categ.labels.
func newChanceSums(q, onlyM int) *chanceSums {
	return &chanceSums{q: q, pi: make([]float64, q), used: make([]bool, q), usedQ: onlyM == pairableUnits}
}

// add counts one unit with at least one rating.
func (s *chanceSums) add(row *countRow) {
	r := row.total
	s.n++
	if r >= 2 {
		s.n2++
	}
	for i, k := range row.cats {
		s.pi[k] += float64(row.n[i]) / float64(r)
		s.used[k] = true
	}
}

// chances turns the sums into π_k and returns each model's p_e; a model
// undefined on the data gets its error in out. ok is false when every
// model is undefined.
func (s *chanceSums) chances(models []chance, stats []string, out []coefficientResult) (pes []float64, ok bool) {
	fail := func(reason func(chance) string) bool {
		failed := true
		for i, m := range models {
			if r := reason(m); r != "" {
				out[i].err = undefined(stats[i], r)
			} else {
				failed = false
			}
		}
		return failed
	}
	if s.n2 == 0 {
		fail(func(chance) string { return reasonNoPairable })
		return nil, false
	}
	if s.n2 < 2 {
		fail(func(chance) string { return reasonOnePairable })
		return nil, false
	}
	ncat := 0
	for k := range s.pi {
		s.pi[k] /= float64(s.n)
		if s.used[k] {
			ncat++
		}
	}
	if s.usedQ {
		s.q = ncat
	}
	q := s.q
	if fail(func(m chance) string {
		switch {
		case m == chanceFleiss && ncat < 2:
			return reasonOneCategory
		case m == chanceGwet && q < 2:
			return "fewer than two categories"
		}
		return ""
	}) {
		return nil, false
	}
	pes = make([]float64, len(models))
	for i, m := range models {
		pe := 0.0
		switch m {
		case chanceFleiss:
			for _, p := range s.pi {
				pe += p * p
			}
		case chanceGwet:
			for _, p := range s.pi {
				pe += p * (1 - p)
			}
			pe /= float64(q - 1)
		}
		pes[i] = pe
	}
	return pes, true
}

// coefficients gives each model's (p_a − p_e)/(1 − p_e) from the sum of
// the units' p_a,i.
func (s *chanceSums) coefficients(pa float64, pes []float64) []float64 {
	pa /= float64(s.n2)
	coefs := make([]float64, len(pes))
	for i, pe := range pes {
		coefs[i] = (pa - pe) / (1 - pe)
	}
	return coefs
}

// unitPa is unit i's p_a,i = Σ_k n_ik(n_ik−1)/(r_i(r_i−1)), 0 below two ratings.
func unitPa(row *countRow) float64 {
	r := row.total
	if r < 2 {
		return 0
	}
	s := 0
	for _, x := range row.n {
		s += int(x) * int(x-1)
	}
	return float64(s) / float64(r*(r-1))
}

// unitVariance is one unit's term (c*_i − c)² of the variance of a model
// with chance agreement pe and coefficient coef; upa is unitPa(row). The
// result is rounded before the caller adds it (the conversion forbids a
// fused multiply-add), so that adding it up unit by unit or from a
// profile's precomputed term rounds the same.
func (s *chanceSums) unitVariance(row *countRow, upa float64, model chance, pe, coef float64) float64 {
	r, q := row.total, s.q
	pei := 0.0
	for i, k := range row.cats {
		x := row.n[i]
		switch model {
		case chanceFleiss:
			pei += float64(x) * s.pi[k]
		case chanceGwet:
			pei += float64(x) * (1 - s.pi[k])
		}
	}
	pei /= float64(r)
	if model == chanceGwet {
		pei /= float64(q - 1)
	}
	per := 0.0
	if r >= 2 {
		per = pe
	}
	ci := float64(s.n) / float64(s.n2) * (upa - per) / (1 - pe)
	cx := ci - 2*(1-coef)*(pei-pe)/(1-pe)
	return float64((cx - coef) * (cx - coef))
}

// finish fills out with the coefficients and the standard errors from the
// summed variance terms vs.
func (s *chanceSums) finish(out []coefficientResult, coefs, vs []float64) {
	n, n2 := s.n, s.n2
	for i := range out {
		if out[i].err != nil {
			continue
		}
		if n < 2 {
			out[i].c = newCoefficient(coefs[i], 0, n2)
			continue
		}
		v := vs[i] / (float64(n) * float64(n-1))
		out[i].c = newCoefficient(coefs[i], sqrtPos(v), n2)
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
