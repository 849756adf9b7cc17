package experiment

import (
	"context"
	"math"
)

// PowerResult is the share of simulated studies in which a condition's
// difference from "none" was detected.
type PowerResult struct {
	Condition string  `json:"condition"`
	Power     float64 `json:"power"`   // detected share
	Studies   int     `json:"studies"` // simulated studies
}

// Power estimates, by simulation, how often a study played by plan
// detects each condition's difference from "none" in figure f: the share
// of studies (seeds plan.Seed, plan.Seed+1, …) whose two-sided
// permutation p-value is below alpha. It uses perms shuffles per study.
// It stops with ctx's error when ctx ends, checked before each study.
func Power(ctx context.Context, p *Plan, f Figure, studies, perms int, alpha float64) ([]PowerResult, error) {
	hits := make([]int, len(p.Conditions))
	q := *p
	for s := range studies {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		q.Seed = p.Seed + uint64(s)
		d := Simulate(&q)
		if d.Baseline < 0 {
			return nil, nil
		}
		point := pointFigures(d)
		pv := permutationP(d, point, Options{Permutations: perms, Seed: q.Seed})
		for c := range p.Conditions {
			if v := pv[c][f]; !math.IsNaN(v) && v < alpha {
				hits[c]++
			}
		}
	}
	var out []PowerResult
	for c, name := range p.Conditions {
		if name != "none" {
			out = append(out, PowerResult{Condition: name, Power: float64(hits[c]) / float64(studies), Studies: studies})
		}
	}
	return out, nil
}
