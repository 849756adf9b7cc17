package experiment

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// permutationP returns, for each condition c other than the baseline and
// each figure, the two-sided permutation p-value of the difference
// between c and the baseline; [c][f], NaN where undefined.
//
// The shuffle follows the design. Randomised by participant, the
// condition labels of the participants in c and the baseline are
// shuffled among them (group sizes kept). Randomised by item, each
// participant's observations in c and the baseline have their condition
// labels shuffled among themselves, so each participant keeps their
// share of each condition. The p-value is (1 + #{|Δ*| ≥ |Δ|}) / (1 + B)
// over the B shuffles whose difference is defined (Phipson & Smyth
// 2010), with a relative tolerance of 1e-9 on the comparison.
func permutationP(d *Data, point [][]float64, opt Options) [][]float64 {
	out := make([][]float64, len(d.Conditions))
	for c := range out {
		out[c] = make([]float64, numFigures)
		for f := range out[c] {
			out[c][f] = math.NaN()
		}
		if d.Baseline < 0 || c == d.Baseline {
			continue
		}
		obs := make([]Observation, 0, len(d.Observations))
		for _, o := range d.Observations {
			if o.Condition == c || o.Condition == d.Baseline {
				obs = append(obs, o)
			}
		}
		slices.SortFunc(obs, compareObservations)
		observed := make([]float64, numFigures)
		for _, f := range Figures {
			observed[f] = point[c][f] - point[d.Baseline][f]
		}
		extreme := make([]int, numFigures)
		defined := make([]int, numFigures)
		sh := newShuffler(obs, d.Design, c, d.Baseline)
		rng := rand.New(rand.NewPCG(opt.Seed, 1<<63|uint64(c)))
		for range opt.Permutations {
			sh.shuffle(rng)
			var tc, tb tally
			for i, o := range obs {
				if sh.cond[i] == c {
					tc.add(o, 1)
				} else {
					tb.add(o, 1)
				}
			}
			for _, f := range Figures {
				delta := tc.figure(f) - tb.figure(f)
				if math.IsNaN(delta) || math.IsNaN(observed[f]) {
					continue
				}
				defined[f]++
				if math.Abs(delta) >= math.Abs(observed[f])*(1-1e-9) {
					extreme[f]++
				}
			}
		}
		for _, f := range Figures {
			if !math.IsNaN(observed[f]) {
				out[c][f] = float64(1+extreme[f]) / float64(1+defined[f])
			}
		}
	}
	return out
}

// compareObservations orders observations by every field, so that the
// shuffles, and so the p-values, do not depend on row order.
func compareObservations(a, b Observation) int {
	return cmp.Or(cmp.Compare(a.Participant, b.Participant), cmp.Compare(a.Item, b.Item),
		cmp.Compare(a.Condition, b.Condition), boolCompare(a.Label, b.Label), boolCompare(a.Gold, b.Gold),
		cmp.Compare(a.Assistant, b.Assistant), cmp.Compare(a.Seconds, b.Seconds))
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// shuffler reassigns the conditions of a set of observations as the
// design allows.
type shuffler struct {
	cond   []int   // current condition of each observation
	groups [][]int // observations whose labels are exchanged with one another
	labels [][]int // for each group, the conditions it holds
	design Design
}

func newShuffler(obs []Observation, design Design, c, base int) *shuffler {
	s := &shuffler{cond: make([]int, len(obs)), design: design}
	if design == ByParticipant {
		// One group whose members are participants: each participant's
		// observations move together.
		first := map[int]int{} // participant → group member index
		var labels []int
		for i, o := range obs {
			if _, ok := first[o.Participant]; !ok {
				first[o.Participant] = len(labels)
				labels = append(labels, o.Condition)
			}
			s.cond[i] = o.Condition
		}
		s.groups = [][]int{membersOf(obs, first)}
		s.labels = [][]int{labels}
		return s
	}
	byP := map[int][]int{}
	var order []int
	for i, o := range obs {
		if _, ok := byP[o.Participant]; !ok {
			order = append(order, o.Participant)
		}
		byP[o.Participant] = append(byP[o.Participant], i)
		s.cond[i] = o.Condition
	}
	for _, p := range order {
		g := byP[p]
		ls := make([]int, len(g))
		for j, i := range g {
			ls[j] = obs[i].Condition
		}
		s.groups = append(s.groups, g)
		s.labels = append(s.labels, ls)
	}
	return s
}

// membersOf returns, for each observation, the index of its participant
// among the group's members.
func membersOf(obs []Observation, first map[int]int) []int {
	m := make([]int, len(obs))
	for i, o := range obs {
		m[i] = first[o.Participant]
	}
	return m
}

// shuffle draws a new assignment.
func (s *shuffler) shuffle(rng *rand.Rand) {
	if s.design == ByParticipant {
		ls := s.labels[0]
		rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		for i, m := range s.groups[0] {
			s.cond[i] = ls[m]
		}
		return
	}
	for g, idx := range s.groups {
		ls := s.labels[g]
		rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		for j, i := range idx {
			s.cond[i] = ls[j]
		}
	}
}
