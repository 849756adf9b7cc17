package experiment

import (
	"math"
	"math/rand/v2"
	"testing"
)

// maceData plants MACE's model: truthful participants who spam with
// probability 0.1 and spammers who spam with 0.9 and then always answer
// class 0; binary items, 30% of class 1.
func maceData(seed uint64) (labels []CrowdLabel, truth []int, spam []float64) {
	rng := rand.New(rand.NewPCG(seed, 9))
	const participants, items, perItem = 20, 1500, 5
	spam = make([]float64, participants)
	for p := range spam {
		spam[p] = 0.1
		if p%4 == 0 {
			spam[p] = 0.9
		}
	}
	truth = make([]int, items)
	for i := range truth {
		if rng.Float64() < 0.3 {
			truth[i] = 1
		}
		for _, p := range rng.Perm(participants)[:perItem] {
			c := truth[i]
			if rng.Float64() < spam[p] {
				c = 0 // a spammer's strategy
				if p%4 != 0 && rng.IntN(2) == 1 {
					c = 1
				}
			}
			labels = append(labels, CrowdLabel{Participant: p, Item: i, Class: c})
		}
	}
	return labels, truth, spam
}

// TestMACERecoversSpammers: on data planted by MACE's own model, the
// estimated spamming probabilities fall within 0.12 of the planted ones
// (a truthful participant's few random answers leave room for noise), every
// spammer and no one else is below competence 0.5, and the item labels are
// right more often than majority vote's.
func TestMACERecoversSpammers(t *testing.T) {
	labels, truth, spam := maceData(4)
	res, err := MACE(labels, len(spam), len(truth), 2)
	if err != nil {
		t.Fatal(err)
	}
	for p, s := range spam {
		if math.Abs(res.Spam[p]-s) > 0.12 || math.Abs(res.Competence[p]-(1-s)) > 0.12 || (s > 0.5) != (res.Competence[p] < 0.5) {
			t.Errorf("participant %d: spam %.3f (competence %.3f), planted %.2f", p, res.Spam[p], res.Competence[p], s)
		}
	}
	votes := make([][2]int, len(truth))
	for _, l := range labels {
		votes[l.Item][l.Class]++
	}
	var mace, majority int
	for i, tr := range truth {
		if res.Label(i) == tr {
			mace++
		}
		if (votes[i][1] > votes[i][0]) == (tr == 1) {
			majority++
		}
	}
	if mace <= majority {
		t.Errorf("MACE right on %d items, majority vote on %d", mace, majority)
	}
	t.Logf("items right: MACE %d, majority %d of %d; %d EM steps", mace, majority, len(truth), res.Iterations)
}

// TestMACEIsEM checks the estimates against an independent computation
// of the model: the log-likelihood MACE reports is the one computed here
// by brute force from its estimates, EM never lowers it from one step to
// the next, and at the end each posterior is the normalised product of
// the answer probabilities.
func TestMACEIsEM(t *testing.T) {
	labels, truth, spam := maceData(7)
	labels, truth = labels[:400], truth[:80] // items 0..79 only
	byItem := map[int][]CrowdLabel{}
	for _, l := range labels {
		byItem[l.Item] = append(byItem[l.Item], l)
	}
	answer := func(r *MACEResult, p, a, t int) float64 {
		v := r.Spam[p] * r.Strategy[p][a]
		if a == t {
			v += 1 - r.Spam[p]
		}
		return v
	}
	prev := math.Inf(-1)
	for steps := 1; steps <= 12; steps++ {
		r, err := maceSteps(labels, len(spam), len(truth), 2, steps)
		if err != nil {
			t.Fatal(err)
		}
		ll := 0.0
		for i := range truth {
			ls := byItem[i]
			if len(ls) == 0 {
				continue
			}
			total := 0.0
			for tr := range 2 {
				v := 0.5
				for _, l := range ls {
					v *= answer(r, l.Participant, l.Class, tr)
				}
				total += v
			}
			for tr := range 2 {
				v := 0.5
				for _, l := range ls {
					v *= answer(r, l.Participant, l.Class, tr)
				}
				if math.Abs(r.Posterior[i][tr]-v/total) > 1e-9 {
					t.Fatalf("after %d steps, item %d: posterior %.6f, the model gives %.6f", steps, i, r.Posterior[i][tr], v/total)
				}
			}
			ll += math.Log(total)
		}
		if math.Abs(ll-r.LogLikelihood) > 1e-6 {
			t.Fatalf("after %d steps: log-likelihood %.6f, computed %.6f", steps, r.LogLikelihood, ll)
		}
		if ll < prev-1e-9 {
			t.Fatalf("EM lowered the log-likelihood from %.6f to %.6f at step %d", prev, ll, steps)
		}
		prev = ll
	}
}

// TestMACERefusesBadInput names the label out of range.
func TestMACERefusesBadInput(t *testing.T) {
	if _, err := MACE([]CrowdLabel{{Participant: 2, Item: 0, Class: 0}}, 2, 1, 2); err == nil {
		t.Fatal("participant 2 of 2 accepted")
	}
}
