package experiment

import (
	"math"
	"testing"
)

// exactP enumerates every split of the participants into the two
// conditions (group sizes kept) and returns the exact two-sided p-value
// of the accuracy difference: the share of splits at least as extreme.
func exactP(d *Data, c, base int) float64 {
	var ps []int
	cond := map[int]int{}
	for _, o := range d.Observations {
		if _, ok := cond[o.Participant]; !ok && (o.Condition == c || o.Condition == base) {
			cond[o.Participant] = o.Condition
			ps = append(ps, o.Participant)
		}
	}
	nc := 0
	for _, v := range cond {
		if v == c {
			nc++
		}
	}
	acc := func(inC map[int]bool) float64 {
		var rc, nC, rb, nB float64
		for _, o := range d.Observations {
			if o.Condition != c && o.Condition != base {
				continue
			}
			right := 0.0
			if o.Label == o.Gold {
				right = 1
			}
			if inC[o.Participant] {
				rc, nC = rc+right, nC+1
			} else {
				rb, nB = rb+right, nB+1
			}
		}
		return rc/nC - rb/nB
	}
	obsIn := map[int]bool{}
	for p, v := range cond {
		obsIn[p] = v == c
	}
	observed := math.Abs(acc(obsIn))
	var extreme, total int
	for mask := 0; mask < 1<<len(ps); mask++ {
		in := map[int]bool{}
		n := 0
		for j, p := range ps {
			if mask&(1<<j) != 0 {
				in[p] = true
				n++
			}
		}
		if n != nc {
			continue
		}
		total++
		if math.Abs(acc(in)) >= observed*(1-1e-9) {
			extreme++
		}
	}
	return float64(extreme) / float64(total)
}

// TestPermutationMatchesExact compares the Monte Carlo p-value with the
// exact one from every split, on a study small enough to enumerate
// (8 participants in two conditions: 70 splits).
func TestPermutationMatchesExact(t *testing.T) {
	p, err := ParsePlan([]byte(`{"participants":8,"items_per_participant":8,"k":2,
		"accuracy":{"none":0.6,"debate":0.85},"follow_when_visible":0.2,"seed":4}`))
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(4) {
		p.Seed = seed
		d := Simulate(p)
		want := exactP(d, 1, 0)
		got := permutationP(d, pointFigures(d), Options{Permutations: 20000, Seed: 1})[1][Accuracy]
		// The Monte Carlo p-value's standard error is at most 0.0036 here.
		if math.Abs(got-want) > 0.015 {
			t.Errorf("seed %d: permutation p = %.4f, exact %.4f", seed, got, want)
		}
	}
}
