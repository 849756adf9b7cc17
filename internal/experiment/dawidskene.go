package experiment

import (
	"fmt"
	"math"
)

// CrowdLabel is one participant's class for one item, for [DawidSkene].
type CrowdLabel struct {
	Participant int
	Item        int
	Class       int // 0..classes-1
}

// DawidSkeneResult holds the estimates of [DawidSkene].
type DawidSkeneResult struct {
	// Posterior[i][k] is the probability that item i's true class is k.
	Posterior [][]float64
	// Confusion[p][j][k] is the probability that participant p answers
	// k when the true class is j.
	Confusion [][][]float64
	// Prior[k] is the estimated share of items of class k.
	Prior []float64
	// Competence[p] is participant p's estimated accuracy: Σ_k Prior[k]·Confusion[p][k][k].
	Competence []float64
	// Iterations is the number of EM steps taken.
	Iterations int
}

// Label returns item i's most probable class (the lowest on a tie), or
// -1 when the item had no labels.
func (r *DawidSkeneResult) Label(i int) int {
	return mostProbable(r.Posterior[i])
}

// mostProbable is the class of highest probability in an item's
// posterior, the lowest on a tie; -1 when the item had no labels (an empty
// or NaN posterior).
func mostProbable(posterior []float64) int {
	best, arg := -1.0, -1
	for k, p := range posterior {
		if p > best {
			best, arg = p, k
		}
	}
	return arg
}

// DawidSkene estimates each participant's confusion matrix and each
// item's class from crowd labels by expectation–maximisation (Dawid &
// Skene 1979). It starts from the per-item vote shares (majority vote)
// and stops when no posterior moves by more than 1e-8 or after 200
// steps. Confusion rows are smoothed by adding 0.01 to every cell, so a
// participant with few labels does not get probabilities of exactly 0
// or 1. Items without labels get a posterior equal to the prior.
func DawidSkene(labels []CrowdLabel, participants, items, classes int) (*DawidSkeneResult, error) {
	if classes < 2 {
		return nil, fmt.Errorf("experiment: Dawid–Skene needs at least 2 classes, got %d", classes)
	}
	for n, l := range labels {
		if l.Participant < 0 || l.Participant >= participants || l.Item < 0 || l.Item >= items || l.Class < 0 || l.Class >= classes {
			return nil, fmt.Errorf("experiment: crowd label %d (participant %d, item %d, class %d) is out of range", n, l.Participant, l.Item, l.Class)
		}
	}
	const smooth = 0.01
	post := make([][]float64, items)
	has := make([]bool, items)
	for i := range post {
		post[i] = make([]float64, classes)
	}
	for _, l := range labels {
		post[l.Item][l.Class]++
		has[l.Item] = true
	}
	for i := range post {
		normalise(post[i])
	}
	res := &DawidSkeneResult{Prior: make([]float64, classes), Confusion: make([][][]float64, participants)}
	for p := range res.Confusion {
		res.Confusion[p] = make([][]float64, classes)
		for j := range res.Confusion[p] {
			res.Confusion[p][j] = make([]float64, classes)
		}
	}
	byItem := make([][]CrowdLabel, items)
	for _, l := range labels {
		byItem[l.Item] = append(byItem[l.Item], l)
	}
	logp := make([]float64, classes)
	for it := 1; it <= 200; it++ {
		res.Iterations = it
		// M step: priors and confusion matrices from the posteriors.
		for k := range res.Prior {
			res.Prior[k] = 0
		}
		nLabelled := 0
		for i := range post {
			if has[i] {
				nLabelled++
				for k, v := range post[i] {
					res.Prior[k] += v
				}
			}
		}
		for k := range res.Prior {
			res.Prior[k] = (res.Prior[k] + smooth) / (float64(nLabelled) + smooth*float64(classes))
		}
		for p := range res.Confusion {
			for j := range res.Confusion[p] {
				for k := range res.Confusion[p][j] {
					res.Confusion[p][j][k] = smooth
				}
			}
		}
		for _, l := range labels {
			for j, v := range post[l.Item] {
				res.Confusion[l.Participant][j][l.Class] += v
			}
		}
		for p := range res.Confusion {
			for j := range res.Confusion[p] {
				normalise(res.Confusion[p][j])
			}
		}
		// E step: posteriors from priors and confusions, in logs.
		moved := 0.0
		for i := range post {
			for k := range logp {
				logp[k] = math.Log(res.Prior[k])
			}
			for _, l := range byItem[i] {
				for k := range logp {
					logp[k] += math.Log(res.Confusion[l.Participant][k][l.Class])
				}
			}
			mx := math.Inf(-1)
			for _, v := range logp {
				mx = math.Max(mx, v)
			}
			var sum float64
			for k, v := range logp {
				logp[k] = math.Exp(v - mx)
				sum += logp[k]
			}
			for k := range logp {
				v := logp[k] / sum
				moved = math.Max(moved, math.Abs(v-post[i][k]))
				post[i][k] = v
			}
		}
		if moved < 1e-8 {
			break
		}
	}
	res.Posterior = post
	res.Competence = make([]float64, participants)
	for p := range res.Competence {
		for k := range res.Prior {
			res.Competence[p] += res.Prior[k] * res.Confusion[p][k][k]
		}
	}
	return res, nil
}

// normalise scales xs to sum to 1; all-zero xs become uniform.
func normalise(xs []float64) {
	var s float64
	for _, v := range xs {
		s += v
	}
	if s == 0 {
		for i := range xs {
			xs[i] = 1 / float64(len(xs))
		}
		return
	}
	for i := range xs {
		xs[i] /= s
	}
}
