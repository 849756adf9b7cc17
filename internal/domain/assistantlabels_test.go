package domain_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"annotate/internal/domain"
)

// Filling runs' labels one after another keeps, for each sentence, the
// label of the first run that has one, in ascending order of sentence,
// as a map filled run by run does; Of finds each label and "" for the
// sentences none has.
func TestAssistantLabelsFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		var got domain.AssistantLabels
		want := map[int64]string{}
		for run := range rng.IntN(4) {
			var b domain.AssistantLabels
			for id := int64(1); id < 60; id++ {
				if rng.IntN(3) == 0 {
					l := []string{"faithful", "unfaithful", "borderline"}[rng.IntN(3)] + string(rune('a'+run))
					b.Add(id, l)
					if _, ok := want[id]; !ok {
						want[id] = l
					}
				}
			}
			got.Fill(b)
		}
		if !slices.IsSorted(got.IDs) || got.Len() != len(want) || len(got.Labels) != len(want) {
			t.Fatalf("trial %d: %d ids (sorted %v), want %d", trial, got.Len(), slices.IsSorted(got.IDs), len(want))
		}
		for id := int64(0); id < 61; id++ {
			if got.Of(id) != want[id] {
				t.Fatalf("trial %d: sentence %d: %q, want %q", trial, id, got.Of(id), want[id])
			}
		}
	}
}
