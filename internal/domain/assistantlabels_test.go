package domain_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
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
					if err := b.Add(id, l); err != nil {
						t.Fatal(err)
					}
					if _, ok := want[id]; !ok {
						want[id] = l
					}
				}
			}
			if err := got.Fill(b); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.IsSorted(got.IDs) || got.Len() != len(want) {
			t.Fatalf("trial %d: %d ids (sorted %v), want %d", trial, got.Len(), slices.IsSorted(got.IDs), len(want))
		}
		for id := int64(0); id < 61; id++ {
			if got.Of(id) != want[id] {
				t.Fatalf("trial %d: sentence %d: %q, want %q", trial, id, got.Of(id), want[id])
			}
		}
	}
}

// The labels are numbered in a byte: a 257th different label is refused,
// by Add and by Fill, and leaves the labels as they were.
func TestAssistantLabelsRefuseTooManyLabels(t *testing.T) {
	var a domain.AssistantLabels
	for i := range 256 {
		if err := a.Add(int64(2*i+1), fmt.Sprintf("label %d", i)); err != nil {
			t.Fatalf("label %d: %v", i, err)
		}
	}
	if err := a.Add(1000, "label 256"); err == nil || !strings.Contains(err.Error(), "more than 256") {
		t.Fatalf("a 257th label: %v", err)
	}
	var b domain.AssistantLabels
	if err := b.Add(2, "another"); err != nil {
		t.Fatal(err)
	}
	if err := a.Fill(b); err == nil {
		t.Fatal("filling in a 257th label was not refused")
	}
	if a.Len() != 256 || a.Of(511) != "label 255" || a.Of(2) != "" {
		t.Fatalf("after the refusals: %d labels, sentence 511 %q, sentence 2 %q", a.Len(), a.Of(511), a.Of(2))
	}
	// Labels a has already take no new number.
	var c domain.AssistantLabels
	if err := c.Add(4, "label 7"); err != nil {
		t.Fatal(err)
	}
	if err := a.Fill(c); err != nil {
		t.Fatal(err)
	}
	if a.Of(4) != "label 7" || a.Of(15) != "label 7" {
		t.Fatalf("sentence 4 %q, sentence 15 %q", a.Of(4), a.Of(15))
	}
}

// AddBytes keeps a label read into a buffer the reader reuses: the
// labels are copied when new, and a label seen before takes its number.
func TestAssistantLabelsAddBytes(t *testing.T) {
	var a domain.AssistantLabels
	buf := []byte("faithful")
	if err := a.AddBytes(1, buf); err != nil {
		t.Fatal(err)
	}
	copy(buf, "unfaith!")
	if err := a.AddBytes(2, []byte("faithful")); err != nil {
		t.Fatal(err)
	}
	if err := a.AddBytes(3, buf); err != nil {
		t.Fatal(err)
	}
	if got := []string{a.Of(1), a.Of(2), a.Of(3)}; !slices.Equal(got, []string{"faithful", "faithful", "unfaith!"}) {
		t.Fatalf("labels %q", got)
	}
}
