package experiment

import (
	"fmt"
	"math"
	"slices"
)

// Assistant labels of an item, as [Observation.Assistant] holds them.
const (
	NoAssistant = -1 // the assistant has no label for this item
	Faithful    = 0  // the assistant judged the sentence faithful
	Unfaithful  = 1  // the assistant judged the sentence unfaithful
)

// Observation is one participant's final label of one sentence whose gold
// is known. Labels are binary: Unfaithful true means "unfaithful".
type Observation struct {
	Participant int     // dense index of the participant, see [Index]
	Item        int     // dense index of the sentence, see [Index]
	Condition   int     // index into the study's conditions
	Label       bool    // the participant's label: true = unfaithful
	Gold        bool    // the gold label: true = unfaithful
	Assistant   int8    // the assistant's label: NoAssistant, Faithful or Unfaithful
	Seconds     float64 // active seconds spent on the sentence; NaN when unknown
}

// assistantLabel returns the assistant's label and whether it has one.
func (o Observation) assistantLabel() (bool, bool) {
	if o.Assistant == NoAssistant {
		return false, false
	}
	return o.Assistant == Unfaithful, true
}

// Index maps string ids to dense indexes in sorted order, so that
// indexes, and every figure computed from them, depend only on the set
// of ids and not on the order in which rows were read.
type Index struct {
	ids []string
	pos map[string]int
}

// NewIndex returns the index of the distinct ids, sorted.
func NewIndex(ids []string) *Index {
	s := slices.Clone(ids)
	slices.Sort(s)
	s = slices.Compact(s)
	pos := make(map[string]int, len(s))
	for i, id := range s {
		pos[id] = i
	}
	return &Index{ids: s, pos: pos}
}

// Of returns the dense index of id, or -1 when id is not in the index.
func (x *Index) Of(id string) int {
	if i, ok := x.pos[id]; ok {
		return i
	}
	return -1
}

// ID returns the id at dense index i.
func (x *Index) ID(i int) string { return x.ids[i] }

// Len returns the number of distinct ids.
func (x *Index) Len() int { return len(x.ids) }

// Data is the input of a study's analysis: its observations, the number
// of participants, items and conditions they index, and the design.
type Data struct {
	Observations []Observation
	Participants int
	Items        int
	Conditions   []string // condition names; Baseline indexes the unassisted one
	Baseline     int      // index of the condition others are compared with ("none"), or -1
	Design       Design   // how conditions were randomised
}

// Design says what a study randomised conditions over.
type Design int

const (
	// ByParticipant gives each participant one condition for all their
	// items (between subjects).
	ByParticipant Design = iota
	// ByItem gives each of a participant's items a condition, so every
	// participant works in every condition (within subjects).
	ByItem
)

// String returns "participant" or "item".
func (d Design) String() string {
	if d == ByItem {
		return "item"
	}
	return "participant"
}

// ParseDesign accepts "participant" and "item".
func ParseDesign(s string) (Design, error) {
	switch s {
	case "participant":
		return ByParticipant, nil
	case "item":
		return ByItem, nil
	}
	return 0, fmt.Errorf("randomise: %q is not one of participant, item", s)
}

// Validate reports the first observation that indexes outside the data's
// participants, items or conditions, or holds a bad assistant label or
// a negative or infinite time.
func (d *Data) Validate() error {
	if d.Baseline >= len(d.Conditions) {
		return fmt.Errorf("experiment: baseline %d outside %d conditions", d.Baseline, len(d.Conditions))
	}
	for i, o := range d.Observations {
		switch {
		case o.Participant < 0 || o.Participant >= d.Participants:
			return fmt.Errorf("experiment: observation %d: participant %d outside 0..%d", i, o.Participant, d.Participants-1)
		case o.Item < 0 || o.Item >= d.Items:
			return fmt.Errorf("experiment: observation %d: item %d outside 0..%d", i, o.Item, d.Items-1)
		case o.Condition < 0 || o.Condition >= len(d.Conditions):
			return fmt.Errorf("experiment: observation %d: condition %d outside 0..%d", i, o.Condition, len(d.Conditions)-1)
		case o.Assistant < NoAssistant || o.Assistant > Unfaithful:
			return fmt.Errorf("experiment: observation %d: assistant label %d is not -1, 0 or 1", i, o.Assistant)
		case o.Seconds < 0 || math.IsInf(o.Seconds, 0):
			return fmt.Errorf("experiment: observation %d: seconds %v is not a finite non-negative number", i, o.Seconds)
		}
	}
	return nil
}
