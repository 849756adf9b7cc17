package iaa

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// BootstrapOptions configures [AlphaBootstrap].
type BootstrapOptions struct {
	Replicates int       // number of resamples (Hayes & Krippendorff suggest 1,000 or more)
	Seed       uint64    // the same seed gives the same result on any number of goroutines
	Confidence float64   // two-sided level of the interval; 0 means 0.95
	Min        []float64 // minimum acceptable α values q, for AlphaBoot.PBelow
	Workers    int       // goroutines; 0 means runtime.GOMAXPROCS(0)
}

// AlphaBoot is Krippendorff's α with a summary of its bootstrap distribution.
type AlphaBoot struct {
	Alpha      float64   // α on the data
	Low, High  float64   // percentile interval at the chosen confidence
	PBelow     []float64 // PBelow[i] is the share of replicates with α < Min[i]
	Replicates int       // replicates drawn
	Draws      int       // pairs drawn per replicate: the number of within-unit pairs
}

// replicatesPerChunk fixes how replicates are grouped for seeding: chunk i
// always draws from its own generator seeded by (Seed, i), so the result does
// not depend on which goroutine runs which chunk.
const replicatesPerChunk = 8

// AlphaBootstrap estimates the sampling distribution of Krippendorff's α by
// the bootstrap of Hayes & Krippendorff (2007) and Krippendorff's algorithm
// for it. The expected disagreement D_e stays that of the data. Each
// replicate draws, with replacement, as many pairs of values as the data hold
// within units (M = Σ_u m_u(m_u−1)/2), each pair from unit u with
// probability 2/((m_u−1)·n) — the weight it carries in the coincidence
// matrix — and takes
//
//	α* = 1 − (1/M) Σ_{drawn pairs} δ² / D_e
//
// so that α* averages to α. The interval is the percentile interval of the
// α* values and PBelow[i] estimates the probability that α falls short of
// Min[i] (Krippendorff's q, e.g. for minima 0.667 and 0.8). When the coders
// never disagree every α* is 1.
//
// The per-pair contributions are computed once and pooled by value into an
// alias table, so a replicate costs O(M) with a constant memory footprint
// for categorical data. Replicates run on opt.Workers goroutines in fixed
// chunks, each with a generator (math/rand/v2 PCG) seeded from opt.Seed and
// the chunk index, so results are reproducible.
//
// Errors: those of [Alpha], and an error when opt.Replicates < 1.
func AlphaBootstrap(r *Ratings, level Level, opt BootstrapOptions) (AlphaBoot, error) {
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
	d, err := disagreements(r, level)
	if err != nil {
		return AlphaBoot{}, err
	}
	delta, err := levelDelta(r, level)
	if err != nil {
		return AlphaBoot{}, err
	}
	table := aliasTable(pairAtoms(r, delta, d.n))

	reps := make([]float64, opt.Replicates)
	chunks := (opt.Replicates + replicatesPerChunk - 1) / replicatesPerChunk
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, chunks)
	scale := 1 / (float64(d.pairs) * d.de)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				src := rand.NewPCG(opt.Seed, splitmix64(uint64(c)))
				lo := c * replicatesPerChunk
				for i := lo; i < min(lo+replicatesPerChunk, len(reps)); i++ {
					reps[i] = 1 - drawSum(src, table, d.pairs)*scale
				}
			}
		})
	}
	wg.Wait()

	slices.Sort(reps)
	res := AlphaBoot{Alpha: 1 - d.do/d.de, Replicates: len(reps), Draws: d.pairs}
	res.Low, res.High = percentiles(reps, conf)
	for _, q := range opt.Min {
		below, _ := slices.BinarySearch(reps, q) // index of the first α* ≥ q
		res.PBelow = append(res.PBelow, float64(below)/float64(len(reps)))
	}
	return res, nil
}

// percentiles returns the nearest-rank (1−conf)/2 and (1+conf)/2 quantiles of
// sorted xs.
func percentiles(xs []float64, conf float64) (lo, hi float64) {
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
	pooled := map[float64]float64{}
	var raw []atom
	add := func(d, w float64) {
		if raw != nil {
			raw = append(raw, atom{d, w})
			return
		}
		pooled[d] += w
		if len(pooled) > maxPooled {
			for d, w := range pooled {
				raw = append(raw, atom{d, w})
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
		w := 2 / (float64(m-1) * float64(n))
		for i, v := range vals {
			for _, x := range vals[i+1:] {
				add(delta(v, x), w)
			}
		}
	}
	if raw == nil {
		for d, w := range pooled {
			raw = append(raw, atom{d, w})
		}
	}
	slices.SortFunc(raw, func(a, b atom) int {
		switch {
		case a.delta < b.delta:
			return -1
		case a.delta > b.delta:
			return 1
		}
		return 0
	})
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

// aliasSlot is one column of Walker's alias table: keep delta with
// probability thr/2³², else take aliasDelta. Both values sit in the slot so
// that a draw touches one cache line.
type aliasSlot struct {
	thr               uint64
	delta, aliasDelta float64
}

// aliasTable builds Walker's alias table for the atoms (Vose's method).
func aliasTable(atoms []atom) []aliasSlot {
	k := len(atoms)
	total := 0.0
	for _, a := range atoms {
		total += a.p
	}
	scaled := make([]float64, k)
	var small, large []int
	for i, a := range atoms {
		scaled[i] = a.p / total * float64(k)
		if scaled[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	slots := make([]aliasSlot, k)
	for i, a := range atoms {
		slots[i] = aliasSlot{thr: 1 << 32, delta: a.delta, aliasDelta: a.delta}
	}
	for len(small) > 0 && len(large) > 0 {
		s := small[len(small)-1]
		small = small[:len(small)-1]
		l := large[len(large)-1]
		slots[s].thr = uint64(scaled[s] * (1 << 32))
		slots[s].aliasDelta = atoms[l].delta
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	return slots
}

// drawSum draws n pairs from the alias table and sums their δ². Each 64-bit
// random word serves two draws: for a 32-bit uniform u, the integer part of
// u·k picks the column and its fractional part is the coin, uniform given the
// column, with 32 bits of resolution — ample for a bootstrap.
func drawSum(src *rand.PCG, tab []aliasSlot, n int) float64 {
	k := uint64(len(tab))
	s := 0.0
	pick := func(u uint64) float64 {
		p := u * k
		slot := &tab[p>>32]
		if p&(1<<32-1) < slot.thr {
			return slot.delta
		}
		return slot.aliasDelta
	}
	for range n / 2 {
		x := src.Uint64()
		s += pick(x >> 32)
		s += pick(x & (1<<32 - 1))
	}
	if n%2 == 1 {
		s += pick(src.Uint64() >> 32)
	}
	return s
}

// splitmix64 scrambles a chunk index into a well-mixed seed word.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
