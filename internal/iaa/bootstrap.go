package iaa

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// BootstrapMethod chooses what a bootstrap of α resamples.
type BootstrapMethod int

const (
	// BootstrapUnits resamples units with all their ratings, with
	// replacement, and recomputes α (observed and expected disagreement)
	// on each resample: the bootstrap Zapf et al. (2016) recommend for α,
	// since the ratings of one unit are correlated. It is the default.
	BootstrapUnits BootstrapMethod = iota
	// BootstrapPairs is the bootstrap of Hayes & Krippendorff (2007):
	// pairs of values are drawn independently from the within-unit pairs,
	// keeping the expected disagreement of the data.
	BootstrapPairs
)

// String returns "units" or "pairs".
func (m BootstrapMethod) String() string {
	switch m {
	case BootstrapUnits:
		return "units"
	case BootstrapPairs:
		return "pairs"
	}
	return fmt.Sprintf("BootstrapMethod(%d)", int(m))
}

// ParseBootstrapMethod accepts "units" (or "") and "pairs".
func ParseBootstrapMethod(s string) (BootstrapMethod, error) {
	switch s {
	case "", "units":
		return BootstrapUnits, nil
	case "pairs":
		return BootstrapPairs, nil
	}
	return 0, fmt.Errorf("iaa: unknown bootstrap method %q (want units or pairs)", s)
}

// BootstrapOptions configures [AlphaBootstrap].
type BootstrapOptions struct {
	Replicates int             // number of resamples (Hayes & Krippendorff suggest 1,000 or more)
	Seed       uint64          // the same seed gives the same result on any number of goroutines
	Confidence float64         // two-sided level of the interval; 0 means 0.95
	Min        []float64       // minimum acceptable α values q, for AlphaBoot.PBelow
	Workers    int             // goroutines; 0 means runtime.GOMAXPROCS(0), 1 draws on the calling goroutine
	Method     BootstrapMethod // what is resampled; the zero value resamples units
	// Percentile asks the units bootstrap for the percentile interval
	// rather than the BCa interval (see AlphaBoot.Interval).
	Percentile bool
}

// The intervals an AlphaBoot gives (AlphaBoot.Interval).
const (
	IntervalBCa        = "bca"        // bias-corrected and accelerated (see bcaInterval)
	IntervalPercentile = "percentile" // the replicates' (1−conf)/2 and (1+conf)/2 quantiles
)

// AlphaBoot is Krippendorff's α with a summary of its bootstrap distribution.
type AlphaBoot struct {
	Alpha      float64         // α on the data
	Low, High  float64         // the interval at the chosen confidence
	Interval   string          // how Low and High are taken: IntervalBCa or IntervalPercentile
	PBelow     []float64       // PBelow[i] is the share of replicates with α < Min[i]
	Replicates int             // replicates with a defined α
	Method     BootstrapMethod // what was resampled
	// Draws is what a replicate draws: within-unit pairs (BootstrapPairs)
	// or units with two or more ratings (BootstrapUnits).
	Draws int
	// Undefined counts the replicates left out because α was undefined on
	// them (every resampled value the same); always 0 for BootstrapPairs.
	Undefined int
}

// replicatesPerChunk fixes how replicates are grouped for seeding: chunk i
// always draws from its own generator seeded by (Seed, i), so the result does
// not depend on which goroutine runs which chunk.
const replicatesPerChunk = 8

// AlphaBootstrap estimates the sampling distribution of Krippendorff's α by
// the bootstrap and summarises it: an interval and, for each minimum q in
// opt.Min, the share of replicates with α < q (Krippendorff's probability
// of failing to reach q, e.g. for 0.667 and 0.8).
//
// The units bootstrap gives the BCa interval (see bcaInterval), its
// acceleration from α with each unit left out in turn, unless
// opt.Percentile is set or the data have too many distinct values or
// kinds of unit for that (see unitPool.jackknife); the pairs bootstrap, and
// those, the percentile interval. On few units with a rare value the
// percentile interval of α is too narrow; the BCa interval covers more
// often (TestBootstrapIntervalCoverage gives the figures).
//
// With opt.Method = BootstrapUnits (the default) a replicate draws, with
// replacement, as many units as the data have units with two or more
// ratings (units with fewer do not enter α), each with all its ratings, and
// recomputes α on them (Zapf, Castell, Morawietz & Karch 2016). Since α
// depends on a unit only through how many of its ratings take each value,
// units alike in that are pooled and a replicate is one multinomial draw
// over the kinds of unit: the cost of a replicate grows with the number of
// distinct kinds, not of units. Replicates on which α is undefined (all
// drawn values equal) are left out and counted in AlphaBoot.Undefined.
//
// With opt.Method = BootstrapPairs it is the bootstrap of Hayes &
// Krippendorff (2007): the expected disagreement D_e stays that of the
// data, and a replicate draws, with replacement, as many pairs of values
// as the data hold within units (M = Σ_u m_u(m_u−1)/2), each pair from unit
// u with probability 2/((m_u−1)·n), and takes
//
//	α* = 1 − (1/M) Σ_{drawn pairs} δ² / D_e
//
// The pairs are pooled by their δ², so a replicate is one multinomial draw
// over the distinct δ² values, exactly distributed as M single draws.
//
// Replicates run on opt.Workers goroutines in fixed chunks, each with a
// generator (math/rand/v2 PCG) seeded from opt.Seed and the chunk index, so
// results are reproducible. When the coders never disagree every α* is 1.
//
// Errors: those of [Alpha], and an error when opt.Replicates < 1.
func AlphaBootstrap(r *Ratings, level Level, opt BootstrapOptions) (AlphaBoot, error) {
	r.check()
	return AlphaBootstrapCoded(CodedOf(r), level, opt)
}

// AlphaBootstrapCoded is [AlphaBootstrap] on a [Coded].
func AlphaBootstrapCoded(c *Coded, level Level, opt BootstrapOptions) (AlphaBoot, error) {
	if opt.Replicates < 1 {
		return AlphaBoot{}, errors.New("iaa: AlphaBootstrap needs at least one replicate")
	}
	conf := opt.Confidence
	if conf == 0 {
		conf = 0.95
	}
	if !(conf > 0 && conf < 1) {
		return AlphaBoot{}, errors.New("iaa: AlphaBootstrap confidence must lie in (0, 1)")
	}
	d, err := codedDisagreements(c, level)
	if err != nil {
		return AlphaBoot{}, err
	}
	var draw func(rng *rand.Rand) func() float64
	var pool *unitPool // the units bootstrap's kinds of unit, when it pools them
	res := AlphaBoot{Alpha: 1 - d.do/d.de, Method: opt.Method}
	switch opt.Method {
	case BootstrapPairs:
		draw, err = pairsReplicate(c, level, d)
		res.Draws = d.pairs
	case BootstrapUnits:
		draw, pool = unitsReplicate(c, level)
		res.Draws = d.units
	default:
		return AlphaBoot{}, fmt.Errorf("iaa: unknown bootstrap method %d", int(opt.Method))
	}
	if err != nil {
		return AlphaBoot{}, err
	}

	reps := make([]float64, opt.Replicates)
	chunks := (opt.Replicates + replicatesPerChunk - 1) / replicatesPerChunk
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, chunks)
	var next atomic.Int64
	drawChunks := func() {
		for {
			ch := int(next.Add(1) - 1)
			if ch >= chunks {
				return
			}
			one := draw(rand.New(rand.NewPCG(opt.Seed, splitmix64(uint64(ch)))))
			lo := ch * replicatesPerChunk
			for i := lo; i < min(lo+replicatesPerChunk, len(reps)); i++ {
				reps[i] = one()
			}
		}
	}
	if workers <= 1 {
		drawChunks() // on the calling goroutine
	} else {
		bootstrapGoroutines.Add(int64(workers))
		var wg sync.WaitGroup
		for range workers {
			wg.Go(drawChunks)
		}
		wg.Wait()
	}

	defined := reps[:0]
	for _, x := range reps {
		if x == x {
			defined = append(defined, x)
		}
	}
	res.Undefined = len(reps) - len(defined)
	if len(defined) == 0 {
		return AlphaBoot{}, undefined(alphaStat+" bootstrap", "alpha is undefined on every replicate: each drew units whose values are all the same")
	}
	reps = defined
	slices.Sort(reps)
	res.Replicates = len(reps)
	res.Low, res.High = PercentileInterval(reps, conf)
	res.Interval = IntervalPercentile
	if opt.Method == BootstrapUnits && !opt.Percentile {
		if jack := pool.jackknife(c.Values, level); jack != nil {
			if lo, hi, ok := bcaInterval(reps, res.Alpha, jack, conf); ok {
				res.Low, res.High, res.Interval = lo, hi, IntervalBCa
			}
		}
	}
	for _, q := range opt.Min {
		below, _ := slices.BinarySearch(reps, q) // index of the first α* ≥ q
		res.PBelow = append(res.PBelow, float64(below)/float64(len(reps)))
	}
	return res, nil
}

// pairsReplicate prepares the Hayes–Krippendorff bootstrap: the
// distinct δ² values of the within-unit pairs with their probabilities.
func pairsReplicate(c *Coded, level Level, d disagreement) (func(*rand.Rand) func() float64, error) {
	var atoms []atom
	if len(c.Values) <= maxCodedValues {
		co := c.coincidences()
		nc := make([]float64, co.v)
		for i, x := range co.o {
			nc[i%co.v] += x
		}
		dl := deltas(c.Values, nc, level)
		n := float64(d.n)
		pooled := map[float64]float64{}
		for i, x := range co.o {
			if x != 0 {
				pooled[dl[i]] += x / n
			}
		}
		for dv, p := range pooled {
			atoms = append(atoms, atom{dv, p})
		}
		slices.SortFunc(atoms, func(a, b atom) int { return cmp.Compare(a.delta, b.delta) })
	} else {
		r := c.Dense()
		delta, err := levelDelta(r, level)
		if err != nil {
			return nil, err
		}
		atoms = pairAtoms(r, delta, d.n)
	}
	p := make([]float64, len(atoms))
	total := 0.0
	for _, a := range atoms {
		total += a.p
	}
	for i, a := range atoms {
		p[i] = a.p / total
	}
	scale := 1 / (float64(d.pairs) * d.de)
	return func(rng *rand.Rand) func() float64 {
		x := make([]int, len(p))
		return func() float64 {
			multinomial(rng, d.pairs, p, x)
			s := 0.0
			for i, k := range x {
				s += float64(k) * atoms[i].delta
			}
			return 1 - s*scale
		}
	}, nil
}

// unitKind is a kind of unit for the units bootstrap: how many of its m
// ratings take each value.
type unitKind struct {
	codes, counts []int32
	m             int
}

// compareKinds orders kinds of unit by their values and counts, read
// through the values (codes are numbered as values come, so they are not
// canonical): by size, then value by value in ascending order of value.
func compareKinds(values []float64, a, b unitKind) int {
	if c := cmp.Compare(a.m, b.m); c != 0 {
		return c
	}
	type vc struct {
		v float64
		n int32
	}
	list := func(k unitKind) []vc {
		out := make([]vc, len(k.codes))
		for i, c := range k.codes {
			out[i] = vc{values[c], k.counts[i]}
		}
		slices.SortFunc(out, func(x, y vc) int { return cmp.Compare(x.v, y.v) })
		return out
	}
	la, lb := list(a), list(b)
	return slices.CompareFunc(la, lb, func(x, y vc) int { return cmp.Or(cmp.Compare(x.v, y.v), cmp.Compare(x.n, y.n)) })
}

// kindTable is whether unitsReplicate and countProfiles find units' kinds
// (count rows) in a table by their values where they can; tests turn it
// off to compare.
var kindTable = true

// valuesKey numbers the sorted values of a unit of two or three ratings
// (codes below v): x·v + y for x ≤ y, v² + (x·v + y)·v + z for x ≤ y ≤ z.
func valuesKey(codes []int32, v int) int {
	x, y := int(codes[0]), int(codes[1])
	if x > y {
		x, y = y, x
	}
	if len(codes) == 2 {
		return x*v + y
	}
	z := int(codes[2])
	if y > z {
		y, z = z, y
	}
	if x > y {
		x, y = y, x
	}
	return v*v + (x*v+y)*v + z
}

// codedKinds pools the n units of c with two or more ratings by kind (how
// many of their ratings take each value), in a canonical order of kinds
// (by their value counts, not the order the units came, so that the same
// data in any row order give the same kinds), with the number of units
// of each.
func codedKinds(c *Coded, n int) ([]unitKind, []float64) {
	v := len(c.Values)
	index := map[string]int{}
	var kinds []unitKind
	var weight []float64
	cnt := make([]int32, v)
	var seen []int32
	var key []byte
	// Units of two or three ratings, with few values, find their kind
	// in a table by their sorted values (see valuesKey) once it is known,
	// rather than by a key made and looked up for each unit.
	var known []int32 // 1 + the kind, 0 while unknown
	if kindTable && v <= maxTalliedValues && n >= v*v*v {
		known = make([]int32, v*v*(v+1))
	}
	for u := range c.Units() {
		_, codes := c.Unit(u)
		if len(codes) < 2 {
			continue
		}
		dk := -1
		if known != nil && len(codes) <= 3 {
			dk = valuesKey(codes, v)
			if i := known[dk]; i > 0 {
				weight[i-1]++
				continue
			}
		}
		seen = unitCounts(codes, cnt, seen)
		slices.Sort(seen)
		key = key[:0]
		for _, k := range seen {
			key = binary.AppendUvarint(key, uint64(k))
			key = binary.AppendUvarint(key, uint64(cnt[k]))
		}
		i, ok := index[string(key)]
		if !ok {
			i = len(kinds)
			index[string(key)] = i
			kd := unitKind{codes: slices.Clone(seen), m: len(codes)}
			for _, k := range seen {
				kd.counts = append(kd.counts, cnt[k])
			}
			kinds = append(kinds, kd)
			weight = append(weight, 0)
		}
		weight[i]++
		if dk >= 0 {
			known[dk] = int32(i) + 1
		}
		for _, k := range seen {
			cnt[k] = 0
		}
	}
	// The kinds are drawn in a canonical order (by their value counts),
	// not in the order the units came, so the same data in any row order
	// draw the same replicates from the same seed.
	order := make([]int, len(kinds))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareKinds(c.Values, kinds[a], kinds[b]) })
	sortedKinds := make([]unitKind, len(kinds))
	sortedWeight := make([]float64, len(kinds))
	for i, j := range order {
		sortedKinds[i], sortedWeight[i] = kinds[j], weight[j]
	}
	return sortedKinds, sortedWeight
}

// unitPool is the units of a Coded with two or more ratings pooled by
// kind (see codedKinds): count[t] units of kinds[t], n in all.
type unitPool struct {
	kinds []unitKind
	count []float64
	n     int
}

// unitsReplicate prepares the bootstrap over units, and returns the units
// pooled by kind, or nil for data with more than maxCodedValues distinct
// values, which it resamples unit by unit.
func unitsReplicate(c *Coded, level Level) (func(*rand.Rand) func() float64, *unitPool) {
	n := 0
	for u := range c.Units() {
		if c.Start[u+1]-c.Start[u] >= 2 {
			n++
		}
	}
	if len(c.Values) > maxCodedValues {
		pairable := make([]int, 0, n)
		for u := range c.Units() {
			if c.Start[u+1]-c.Start[u] >= 2 {
				pairable = append(pairable, u)
			}
		}
		// Continuous values: resample unit indexes and recompute α on a
		// matrix of the drawn units. The units are put in a canonical
		// order first (by their sorted values: α sees a unit only through
		// them), so that the same data in any row order draw the same
		// replicates.
		dense := c.Dense()
		sortedVals := make(map[int][]float64, n)
		for _, u := range pairable {
			var vs []float64
			for _, x := range dense.Unit(u) {
				if x == x {
					vs = append(vs, x)
				}
			}
			slices.Sort(vs)
			sortedVals[u] = vs
		}
		slices.SortStableFunc(pairable, func(a, b int) int { return slices.Compare(sortedVals[a], sortedVals[b]) })
		return func(rng *rand.Rand) func() float64 {
			rs := NewRatings(n, c.Coders)
			return func() float64 {
				for i := range n {
					copy(rs.Unit(i), dense.Unit(pairable[rng.IntN(n)]))
				}
				d, err := disagreements(rs, level)
				if err != nil {
					return math.NaN()
				}
				return 1 - d.do/d.de
			}
		}, nil
	}
	kinds, count := codedKinds(c, n)
	v := len(c.Values)
	weight := make([]float64, len(count))
	for i, k := range count {
		weight[i] = k / float64(n)
	}
	return func(rng *rand.Rand) func() float64 {
		x := make([]int, len(kinds))
		o := make([]float64, v*v)
		nc := make([]float64, v)
		return func() float64 {
			multinomial(rng, n, weight, x)
			clear(o)
			units := 0
			for t, k := range x {
				if k == 0 {
					continue
				}
				units += k
				kinds[t].add(o, v, float64(k))
			}
			d, err := alphaOf(o, c.Values, level, nc, units)
			if err != nil {
				return math.NaN()
			}
			return 1 - d.do/d.de
		}
	}, &unitPool{kinds, count, n}
}

// add adds times units of the kind to the coincidence matrix o of v
// values: each ordered pair of its ratings from different coders counts
// 1/(m−1).
func (kd *unitKind) add(o []float64, v int, times float64) {
	w := times / float64(kd.m-1)
	for i, a := range kd.codes {
		na := float64(kd.counts[i])
		row := o[int(a)*v:]
		for j, b := range kd.codes {
			nb := float64(kd.counts[j])
			if i == j {
				nb--
			}
			row[b] += w * na * nb
		}
	}
}

// jackknifeBudget bounds the work of unitPool.jackknife, in cells of
// coincidence matrix read: about 40 ms.
const jackknifeBudget = 40_000_000

// weighted is a value that stands for n units.
type weighted struct{ x, n float64 }

// jackknife returns α with each unit of the pool left out in turn, by
// kind of unit (units alike give the same value), for the values of the
// data: what the BCa interval's acceleration is estimated from. Values
// where α is undefined without the unit are left out. It returns nil, and
// the units bootstrap gives the percentile interval, for no pool (data
// with more than maxCodedValues distinct values) and where one α per kind
// would cost more than jackknifeBudget cells of coincidence matrix
// (kinds × values²).
func (p *unitPool) jackknife(values []float64, level Level) []weighted {
	v := len(values)
	if p == nil || len(p.kinds)*v*v > jackknifeBudget {
		return nil
	}
	all := make([]float64, v*v)
	for t := range p.kinds {
		p.kinds[t].add(all, v, p.count[t])
	}
	o := make([]float64, v*v)
	nc := make([]float64, v)
	var out []weighted
	for t := range p.kinds {
		copy(o, all)
		p.kinds[t].add(o, v, -1)
		for i, x := range o {
			if math.Abs(x) < 1e-9 { // what the subtraction leaves of a cell it empties
				o[i] = 0
			}
		}
		d, err := alphaOf(o, values, level, nc, p.n-1)
		if err != nil {
			continue
		}
		if a := 1 - d.do/d.de; a == a {
			out = append(out, weighted{a, p.count[t]})
		}
	}
	return out
}

// bcaInterval returns the bias-corrected and accelerated (BCa) bootstrap
// interval at confidence conf (Efron 1987; Efron & Tibshirani 1993, ch.
// 14) from sorted replicates xs (non-empty) of a statistic whose value on
// the data is est, with the jackknife values jack (each standing for n
// units) for the acceleration:
//
//	z0 = Φ⁻¹(share of replicates below est, ties counted half)
//	a  = Σ n(θ̄ − θᵢ)³ / (6 (Σ n(θ̄ − θᵢ)²)^{3/2}),  θ̄ the jackknife mean
//	p± = Φ(z0 + (z0 + z±)/(1 − a(z0 + z±))),  z± = Φ⁻¹((1 ± conf)/2)
//
// and the interval is the nearest-rank p− and p+ quantiles of xs, as
// [PercentileInterval] takes them: with z0 = a = 0 it is the percentile
// interval. The share below est is kept within [1/(2B), 1 − 1/(2B)] of
// B replicates, so that z0 stays finite. ok is false, and the interval
// is not given, when a bound's 1 − a(z0 + z) is not positive.
func bcaInterval(xs []float64, est float64, jack []weighted, conf float64) (lo, hi float64, ok bool) {
	b := float64(len(xs))
	below, _ := slices.BinarySearch(xs, est) // replicates < est
	ties := 0
	for i := below; i < len(xs) && xs[i] == est; i++ {
		ties++
	}
	share := (float64(below) + float64(ties)/2) / b
	share = min(max(share, 0.5/b), 1-0.5/b)
	z0 := normalQuantile(share)
	mean, total := 0.0, 0.0
	for _, j := range jack {
		mean += j.n * j.x
		total += j.n
	}
	a := 0.0
	if total > 0 {
		mean /= total
		num, den := 0.0, 0.0
		for _, j := range jack {
			d := mean - j.x
			num += j.n * d * d * d
			den += j.n * d * d
		}
		if den > 0 {
			a = num / (6 * math.Pow(den, 1.5))
		}
	}
	adjusted := func(p float64) (float64, bool) {
		z := z0 + normalQuantile(p)
		den := 1 - a*z
		if !(den > 0) {
			return 0, false
		}
		return normalCDF(z0 + z/den), true
	}
	pl, okl := adjusted((1 - conf) / 2)
	ph, okh := adjusted((1 + conf) / 2)
	if !okl || !okh {
		return 0, 0, false
	}
	i := int(math.Floor(b * pl))
	j := int(math.Ceil(b*ph)) - 1
	i = min(max(i, 0), len(xs)-1)
	j = min(max(j, 0), len(xs)-1)
	return xs[i], xs[j], true
}

// normalCDF is the standard normal distribution function Φ.
func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// normalQuantile is Φ⁻¹, for p in (0, 1).
func normalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// PercentileInterval returns the nearest-rank (1−conf)/2 and (1+conf)/2
// quantiles of sorted xs (non-empty): the percentile bootstrap interval
// every resampled figure uses.
func PercentileInterval(xs []float64, conf float64) (lo, hi float64) {
	n := float64(len(xs))
	i := int(math.Floor(n * (1 - conf) / 2))
	j := int(math.Ceil(n*(1+conf)/2)) - 1
	i = min(max(i, 0), len(xs)-1)
	j = min(max(j, 0), len(xs)-1)
	return xs[i], xs[j]
}

// levelDelta returns δ² for the level as a function of two values.
func levelDelta(r *Ratings, level Level) (func(a, b float64) float64, error) {
	switch level {
	case Nominal:
		return func(a, b float64) float64 {
			if a == b {
				return 0
			}
			return 1
		}, nil
	case Ordinal:
		rk := midRanks(r)
		return func(a, b float64) float64 {
			d := rk.rank(a) - rk.rank(b)
			return d * d
		}, nil
	case Interval:
		return func(a, b float64) float64 { return (a - b) * (a - b) }, nil
	case Ratio:
		return ratioDelta, nil
	case MASI:
		return MASIDistance, nil
	}
	return nil, errors.New("iaa: unknown level")
}

// atom is one value of δ² with its probability of being drawn.
type atom struct {
	delta, p float64
}

// maxPooled bounds the distinct δ² values pooled through a map; beyond it
// (continuous data) pairs are collected in a slice and merged after sorting.
const maxPooled = 1 << 12

// pairAtoms lists the distinct δ² values of the within-unit pairs with
// their total coincidence weight 2/((m_u−1)·n), which sums to 1.
func pairAtoms(r *Ratings, delta func(a, b float64) float64, n int) []atom {
	// Pairs are pooled by δ² and by the size of their unit (which fixes a
	// pair's weight) as whole counts, and summed in a canonical order at
	// the end, so the atoms are the same, bit for bit, whatever order the
	// units come in.
	type pooledKey struct {
		delta float64
		m     int
	}
	weight := func(m int) float64 { return 2 / (float64(m-1) * float64(n)) }
	pooled := map[pooledKey]int{}
	var raw []atom
	add := func(d float64, m int) {
		if raw != nil {
			raw = append(raw, atom{d, weight(m)})
			return
		}
		pooled[pooledKey{d, m}]++
		if len(pooled) > maxPooled {
			for k, c := range pooled {
				raw = append(raw, atom{k.delta, float64(c) * weight(k.m)})
			}
		}
	}
	buf := make([]float64, 0, r.Coders)
	for u := range r.Units {
		vals := compact(r.Unit(u), buf)
		m := len(vals)
		if m < 2 {
			continue
		}
		for i, v := range vals {
			for _, x := range vals[i+1:] {
				add(delta(v, x), m)
			}
		}
	}
	if raw == nil {
		for k, c := range pooled {
			raw = append(raw, atom{k.delta, float64(c) * weight(k.m)})
		}
	}
	slices.SortFunc(raw, func(a, b atom) int { return cmp.Or(cmp.Compare(a.delta, b.delta), cmp.Compare(a.p, b.p)) })
	out := raw[:0]
	for _, a := range raw {
		if len(out) > 0 && out[len(out)-1].delta == a.delta {
			out[len(out)-1].p += a.p
		} else {
			out = append(out, a)
		}
	}
	return out
}

// splitmix64 scrambles a chunk index into a well-mixed seed word.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
