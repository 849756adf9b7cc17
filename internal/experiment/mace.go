package experiment

import (
	"fmt"
	"math"
)

// MACEResult holds the estimates of [MACE].
type MACEResult struct {
	// Posterior[i][k] is the probability that item i's true class is k.
	Posterior [][]float64
	// Spam[p] is the probability that participant p answers at random
	// (from their own answer distribution Strategy[p]) rather than the
	// truth; Competence[p] is 1 − Spam[p].
	Spam, Competence []float64
	Strategy         [][]float64
	// LogLikelihood is the data's log-likelihood at the estimates, and
	// Iterations the number of EM steps taken.
	LogLikelihood float64
	Iterations    int
}

// Label returns item i's most probable class (the lowest on a tie), or
// -1 when the item had no labels.
func (r *MACEResult) Label(i int) int {
	return mostProbable(r.Posterior[i])
}

// maceSmoothing is added to every expected count of the M step, so that
// no spamming probability or strategy reaches exactly 0 or 1.
const maceSmoothing = 0.01

// MACE estimates each participant's trustworthiness and each item's class
// by expectation–maximisation under MACE's model (Hovy, Berg-Kirkpatrick,
// Vaswani and Hovy 2013, "Learning Whom to Trust with MACE"): an item's
// true class is uniform; each participant, on each item, spams with
// probability Spam[p], answering from their own strategy distribution,
// and otherwise answers the true class. EM starts from every participant
// spamming with probability 0.5 and a uniform strategy, smooths the
// expected counts by 0.01, and stops when the log-likelihood rises by
// less than 1e-9 or after 500 steps. (The published tool also offers
// variational priors and restarts; this is its plain EM.) Items without
// labels get a uniform posterior.
func MACE(labels []CrowdLabel, participants, items, classes int) (*MACEResult, error) {
	return maceSteps(labels, participants, items, classes, 500)
}

// maceSteps is MACE with at most maxSteps EM steps.
func maceSteps(labels []CrowdLabel, participants, items, classes, maxSteps int) (*MACEResult, error) {
	if classes < 2 {
		return nil, fmt.Errorf("experiment: MACE needs at least 2 classes, got %d", classes)
	}
	for n, l := range labels {
		if l.Participant < 0 || l.Participant >= participants || l.Item < 0 || l.Item >= items || l.Class < 0 || l.Class >= classes {
			return nil, fmt.Errorf("experiment: crowd label %d (participant %d, item %d, class %d) is out of range", n, l.Participant, l.Item, l.Class)
		}
	}
	r := &MACEResult{Spam: make([]float64, participants), Strategy: make([][]float64, participants), Posterior: make([][]float64, items)}
	for p := range participants {
		r.Spam[p] = 0.5
		r.Strategy[p] = make([]float64, classes)
		for k := range classes {
			r.Strategy[p][k] = 1 / float64(classes)
		}
	}
	for i := range r.Posterior {
		r.Posterior[i] = make([]float64, classes)
	}
	byItem := make([][]CrowdLabel, items)
	for _, l := range labels {
		byItem[l.Item] = append(byItem[l.Item], l)
	}
	prev := math.Inf(-1)
	for step := 1; step <= maxSteps; step++ {
		r.Iterations = step
		r.LogLikelihood = maceEStep(r, byItem, classes)
		maceMStep(r, byItem, participants, classes)
		if r.LogLikelihood-prev < 1e-9 && step > 1 {
			break
		}
		prev = r.LogLikelihood
	}
	r.LogLikelihood = maceEStep(r, byItem, classes)
	r.Competence = make([]float64, participants)
	for p, s := range r.Spam {
		r.Competence[p] = 1 - s
	}
	return r, nil
}

// maceAnswer is P(answer a | true class t) for participant p.
func maceAnswer(r *MACEResult, p, a, t int) float64 {
	v := r.Spam[p] * r.Strategy[p][a]
	if a == t {
		v += 1 - r.Spam[p]
	}
	return v
}

// maceEStep fills the posteriors and returns the log-likelihood.
func maceEStep(r *MACEResult, byItem [][]CrowdLabel, classes int) float64 {
	ll := 0.0
	for i, ls := range byItem {
		post := r.Posterior[i]
		total := 0.0
		for t := range classes {
			v := 1 / float64(classes)
			for _, l := range ls {
				v *= maceAnswer(r, l.Participant, l.Class, t)
			}
			post[t] = v
			total += v
		}
		for t := range post {
			post[t] /= total
		}
		if len(ls) > 0 {
			ll += math.Log(total)
		}
	}
	return ll
}

// maceMStep re-estimates the spamming probabilities and strategies from
// the expected counts under the posteriors.
func maceMStep(r *MACEResult, byItem [][]CrowdLabel, participants, classes int) {
	spam := make([]float64, participants)
	truth := make([]float64, participants)
	strat := make([][]float64, participants)
	for p := range strat {
		strat[p] = make([]float64, classes)
	}
	for i, ls := range byItem {
		for _, l := range ls {
			p, a := l.Participant, l.Class
			for t, g := range r.Posterior[i] {
				pa := maceAnswer(r, p, a, t)
				s := g * r.Spam[p] * r.Strategy[p][a] / pa // the answer was spam
				spam[p] += s
				strat[p][a] += s
				truth[p] += g - s
			}
		}
	}
	for p := range participants {
		r.Spam[p] = (spam[p] + maceSmoothing) / (spam[p] + truth[p] + 2*maceSmoothing)
		total := 0.0
		for a := range classes {
			total += strat[p][a] + maceSmoothing
		}
		for a := range classes {
			r.Strategy[p][a] = (strat[p][a] + maceSmoothing) / total
		}
	}
}
