package experiment

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"annotate/internal/iaa"
)

// Options sets how intervals and p-values are computed.
type Options struct {
	Replicates   int     // bootstrap resamples; 0 means 2,000
	Permutations int     // permutation-test shuffles; 0 means 2,000
	Seed         uint64  // the same seed gives the same result on any number of workers
	Confidence   float64 // two-sided level of the intervals; 0 means 0.95
	Workers      int     // goroutines; 0 means runtime.GOMAXPROCS(0)
}

func (o Options) withDefaults() Options {
	if o.Replicates <= 0 {
		o.Replicates = 2000
	}
	if o.Permutations <= 0 {
		o.Permutations = 2000
	}
	if o.Confidence <= 0 || o.Confidence >= 1 {
		o.Confidence = 0.95
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// Estimate is a figure with its bootstrap interval. Undefined values are
// NaN and written as null in JSON.
type Estimate struct {
	Value float64    // the figure on the data
	CI    [2]float64 // percentile interval of the bootstrap replicates
	// Undefined counts the replicates in which the figure was undefined
	// (for example no unfaithful sentence drawn); they are left out of
	// the interval.
	Undefined int
}

// MarshalJSON writes {"value": v, "ci95": [lo, hi]}, with null for NaN.
func (e Estimate) MarshalJSON() ([]byte, error) {
	type out struct {
		Value     *float64    `json:"value"`
		CI        [2]*float64 `json:"ci95"`
		Undefined int         `json:"undefined_replicates,omitempty"`
	}
	return json.Marshal(out{finite(e.Value), [2]*float64{finite(e.CI[0]), finite(e.CI[1])}, e.Undefined})
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// Difference is a condition's figure minus the baseline's, with its
// bootstrap interval and a two-sided permutation p-value.
type Difference struct {
	Estimate
	P float64 // NaN when undefined
}

// MarshalJSON adds "p" to the estimate's fields.
func (d Difference) MarshalJSON() ([]byte, error) {
	e, err := d.Estimate.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(e, &m); err != nil {
		return nil, err
	}
	m["p"] = finite(d.P)
	return json.Marshal(m)
}

// ConditionResult is one condition's figures.
type ConditionResult struct {
	Name    string
	Counts  Counts
	Figures map[Figure]Estimate
	// VsBaseline is each figure minus the baseline's; nil for the
	// baseline itself or when the study has none.
	VsBaseline map[Figure]Difference
}

// MarshalJSON keys figures by name.
func (c ConditionResult) MarshalJSON() ([]byte, error) {
	fig := map[string]Estimate{}
	for f, e := range c.Figures {
		fig[f.String()] = e
	}
	var vs map[string]Difference
	if c.VsBaseline != nil {
		vs = map[string]Difference{}
		for f, d := range c.VsBaseline {
			vs[f.String()] = d
		}
	}
	return json.Marshal(struct {
		Name       string                `json:"name"`
		Counts     Counts                `json:"counts"`
		Figures    map[string]Estimate   `json:"figures"`
		VsBaseline map[string]Difference `json:"vs_baseline,omitempty"`
	}{c.Name, c.Counts, fig, vs})
}

// Result is the analysis of a study's observations.
type Result struct {
	Conditions   []ConditionResult `json:"conditions"`
	Design       string            `json:"randomise"`
	Replicates   int               `json:"replicates"`
	Permutations int               `json:"permutations"`
	Seed         uint64            `json:"seed"`
	Confidence   float64           `json:"confidence"`
}

// Analyse computes every figure of every condition with its two-way
// cluster bootstrap interval, and each condition's difference from the
// baseline with its interval and permutation p-value.
//
// The bootstrap resamples participants and items independently, each
// with replacement; an observation enters a replicate as often as its
// participant was drawn times as often as its item was drawn (the
// two-way cluster, or "pigeonhole", bootstrap of Owen 2007). With
// randomisation by participant, participants are drawn within their
// condition so that each condition keeps its size. Replicate r draws from
// a PCG generator seeded with (Seed, r), so results do not depend on the
// number of workers; participants and items are drawn by dense index,
// which [NewIndex] makes independent of row order.
func Analyse(d *Data, opt Options) (*Result, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if len(d.Observations) == 0 {
		return nil, fmt.Errorf("experiment: no observations")
	}
	opt = opt.withDefaults()
	strata, err := participantStrata(d)
	if err != nil {
		return nil, err
	}
	point := pointFigures(d)
	reps := bootstrapFigures(d, strata, opt)
	perm := permutationP(d, point, opt)
	cnt := counts(d)
	res := &Result{Design: d.Design.String(), Replicates: opt.Replicates, Permutations: opt.Permutations,
		Seed: opt.Seed, Confidence: opt.Confidence}
	for c, name := range d.Conditions {
		cr := ConditionResult{Name: name, Counts: cnt[c], Figures: map[Figure]Estimate{}}
		for _, f := range Figures {
			cr.Figures[f] = estimate(point[c][f], reps, func(r []float64) float64 { return r[c*int(numFigures)+int(f)] }, opt.Confidence)
		}
		if d.Baseline >= 0 && c != d.Baseline {
			b := d.Baseline
			cr.VsBaseline = map[Figure]Difference{}
			for _, f := range Figures {
				e := estimate(point[c][f]-point[b][f], reps, func(r []float64) float64 {
					return r[c*int(numFigures)+int(f)] - r[b*int(numFigures)+int(f)]
				}, opt.Confidence)
				cr.VsBaseline[f] = Difference{Estimate: e, P: perm[c][f]}
			}
		}
		res.Conditions = append(res.Conditions, cr)
	}
	return res, nil
}

// estimate collects one value from each replicate and returns the point
// value with the percentile interval of the finite ones.
func estimate(value float64, reps [][]float64, pick func([]float64) float64, conf float64) Estimate {
	xs := make([]float64, 0, len(reps))
	undefined := 0
	for _, r := range reps {
		if v := pick(r); !math.IsNaN(v) {
			xs = append(xs, v)
		} else {
			undefined++
		}
	}
	e := Estimate{Value: value, CI: [2]float64{math.NaN(), math.NaN()}, Undefined: undefined}
	if len(xs) > 0 {
		slices.Sort(xs)
		e.CI[0], e.CI[1] = iaa.PercentileInterval(xs, conf)
	}
	return e
}

// participantStrata returns, for each participant, the stratum their
// resampling is drawn within: their condition under randomisation by
// participant, one stratum otherwise. It refuses a participant seen in
// two conditions of a by-participant study.
func participantStrata(d *Data) ([][]int, error) {
	if d.Design != ByParticipant {
		all := make([]int, 0, d.Participants)
		seen := make([]bool, d.Participants)
		for _, o := range d.Observations {
			seen[o.Participant] = true
		}
		for p, ok := range seen {
			if ok {
				all = append(all, p)
			}
		}
		return [][]int{all}, nil
	}
	cond := make([]int, d.Participants)
	for i := range cond {
		cond[i] = -1
	}
	for _, o := range d.Observations {
		switch cond[o.Participant] {
		case -1:
			cond[o.Participant] = o.Condition
		case o.Condition:
		default:
			return nil, fmt.Errorf("experiment: participant %d has labels in conditions %q and %q, but the study randomises by participant",
				o.Participant, d.Conditions[cond[o.Participant]], d.Conditions[o.Condition])
		}
	}
	strata := make([][]int, len(d.Conditions))
	for p, c := range cond {
		if c >= 0 {
			strata[c] = append(strata[c], p)
		}
	}
	return strata, nil
}

// sampler draws the multiplicities of bootstrap replicates.
type sampler struct {
	strata       [][]int // participants, grouped by the stratum they are drawn within
	items        []int   // the items that have observations
	participants int
	nItems       int
	seed         uint64
}

func newSampler(d *Data, strata [][]int, seed uint64) *sampler {
	seen := make([]bool, d.Items)
	for _, o := range d.Observations {
		seen[o.Item] = true
	}
	s := &sampler{strata: strata, participants: d.Participants, nItems: d.Items, seed: seed}
	for i, ok := range seen {
		if ok {
			s.items = append(s.items, i)
		}
	}
	return s
}

// draws returns replicate r's multiplicities: how often each participant
// and each item was drawn.
func (s *sampler) draws(r int) (mp, mi []float64) {
	rng := rand.New(rand.NewPCG(s.seed, uint64(r)))
	mp = make([]float64, s.participants)
	for _, st := range s.strata {
		for range st {
			mp[st[rng.IntN(len(st))]]++
		}
	}
	mi = make([]float64, s.nItems)
	for range s.items {
		mi[s.items[rng.IntN(len(s.items))]]++
	}
	return mp, mi
}

// bootstrapFigures returns, for each replicate, every figure of every
// condition, flattened as [c*numFigures+f].
func bootstrapFigures(d *Data, strata [][]int, opt Options) [][]float64 {
	out := make([][]float64, opt.Replicates)
	smp := newSampler(d, strata, opt.Seed)
	var wg sync.WaitGroup
	next := make(chan int)
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts := make([]tally, len(d.Conditions))
			for r := range next {
				mp, mi := smp.draws(r)
				for c := range ts {
					ts[c] = tally{secs: ts[c].secs[:0]}
				}
				for _, o := range d.Observations {
					if w := mp[o.Participant] * mi[o.Item]; w > 0 {
						ts[o.Condition].add(o, w)
					}
				}
				row := make([]float64, 0, len(ts)*int(numFigures))
				for _, fs := range figuresOf(ts) {
					row = append(row, fs...)
				}
				out[r] = row
			}
		}()
	}
	for r := range opt.Replicates {
		next <- r
	}
	close(next)
	wg.Wait()
	return out
}
