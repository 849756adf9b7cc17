package experiment

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDawidSkeneRecoversCompetence plants participants of known accuracy
// (symmetric confusion) on binary items and expects the estimated
// competences within 0.07 of the planted ones, and the item labels to
// beat majority vote.
func TestDawidSkeneRecoversCompetence(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const participants, items, perItem = 30, 2000, 6
	acc := make([]float64, participants)
	for p := range acc {
		acc[p] = 0.55 + 0.4*float64(p)/float64(participants-1)
	}
	truth := make([]int, items)
	var labels []CrowdLabel
	for i := range truth {
		if rng.Float64() < 0.3 {
			truth[i] = 1
		}
		for _, p := range rng.Perm(participants)[:perItem] {
			c := truth[i]
			if rng.Float64() >= acc[p] {
				c = 1 - c
			}
			labels = append(labels, CrowdLabel{Participant: p, Item: i, Class: c})
		}
	}
	res, err := DawidSkene(labels, participants, items, 2)
	if err != nil {
		t.Fatal(err)
	}
	for p, a := range acc {
		if math.Abs(res.Competence[p]-a) > 0.07 {
			t.Errorf("participant %d: competence %.3f, planted %.3f", p, res.Competence[p], a)
		}
	}
	var dsRight, mvRight int
	votes := make([][2]int, items)
	for _, l := range labels {
		votes[l.Item][l.Class]++
	}
	for i := range truth {
		if res.Label(i) == truth[i] {
			dsRight++
		}
		mv := 0
		if votes[i][1] > votes[i][0] {
			mv = 1
		}
		if mv == truth[i] {
			mvRight++
		}
	}
	if dsRight <= mvRight {
		t.Errorf("Dawid–Skene right on %d items, majority vote on %d", dsRight, mvRight)
	}
	t.Logf("items right: Dawid–Skene %d, majority %d of %d; %d EM steps", dsRight, mvRight, items, res.Iterations)
}

// TestDawidSkeneRefusesBadInput names the label out of range.
func TestDawidSkeneRefusesBadInput(t *testing.T) {
	if _, err := DawidSkene([]CrowdLabel{{Participant: 0, Item: 3, Class: 0}}, 1, 2, 2); err == nil {
		t.Fatal("item 3 of 2 accepted")
	}
	if _, err := DawidSkene(nil, 1, 1, 1); err == nil {
		t.Fatal("one class accepted")
	}
}
