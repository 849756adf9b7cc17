package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Bounds shared by study definitions and simulated plans: participants
// per item, and items per participant.
const (
	MaxK                   = 50
	MaxItemsPerParticipant = 10000
)

// Condition names a study may use.
var ConditionNames = []string{"none", "verdict", "debate", "after"}

// Visible reports whether a condition shows the assistant before the
// participant's first label ("after" shows it only once a first label is
// saved).
func Visible(condition string) bool { return condition == "verdict" || condition == "debate" }

// Plan describes a simulated study: who takes part, how well they label
// in each condition and how often they follow a visible assistant. The
// load generator plays it over HTTP; [Simulate] draws it directly.
type Plan struct {
	Participants        int                `json:"participants"`
	ItemsPerParticipant int                `json:"items_per_participant"` // default 10
	K                   int                `json:"k"`                     // participants per item; default 3
	Conditions          []string           `json:"conditions"`            // default: the keys of Accuracy, in ConditionNames order
	Randomise           string             `json:"randomise"`             // participant (default) or item
	ScreeningPass       float64            `json:"screening_pass"`        // chance to pass screening; default 1
	AttentionPass       float64            `json:"attention_pass"`        // chance to pass each attention check; default 1
	Accuracy            map[string]float64 `json:"accuracy"`              // chance of a right label when not following the assistant
	FollowWhenVisible   float64            `json:"follow_when_visible"`   // chance to copy a visible assistant's label
	AssistantAccuracy   float64            `json:"assistant_accuracy"`    // chance the assistant's label is right; default 0.8
	UnfaithfulShare     float64            `json:"unfaithful_share"`      // share of unfaithful sentences; default 0.3
	SecondsPerSentence  float64            `json:"seconds_per_sentence"`  // median active seconds; default 20
	Seed                uint64             `json:"seed"`
}

// ReadPlan decodes and validates a plan; unknown fields are errors that
// name the field.
func ReadPlan(r io.Reader) (*Plan, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var p Plan
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	if dec.More() {
		return nil, errors.New("plan: more than one JSON value")
	}
	if err := p.normalise(); err != nil {
		return nil, err
	}
	return &p, nil
}

// ParsePlan is [ReadPlan] on bytes.
func ParsePlan(b []byte) (*Plan, error) { return ReadPlan(bytes.NewReader(b)) }

// normalise fills defaults and checks every field.
func (p *Plan) normalise() error {
	if p.ItemsPerParticipant == 0 {
		p.ItemsPerParticipant = 10
	}
	if p.K == 0 {
		p.K = 3
	}
	if p.Randomise == "" {
		p.Randomise = "participant"
	}
	for _, f := range []*float64{&p.ScreeningPass, &p.AttentionPass} {
		if *f == 0 {
			*f = 1
		}
	}
	if p.AssistantAccuracy == 0 {
		p.AssistantAccuracy = 0.8
	}
	if p.UnfaithfulShare == 0 {
		p.UnfaithfulShare = 0.3
	}
	if p.SecondsPerSentence == 0 {
		p.SecondsPerSentence = 20
	}
	if len(p.Conditions) == 0 {
		for _, c := range ConditionNames {
			if _, ok := p.Accuracy[c]; ok {
				p.Conditions = append(p.Conditions, c)
			}
		}
	}
	var errs []string
	if p.Participants <= 0 {
		errs = append(errs, "participants: must be at least 1")
	}
	if p.ItemsPerParticipant < 1 || p.ItemsPerParticipant > MaxItemsPerParticipant {
		errs = append(errs, fmt.Sprintf("items_per_participant: %d is not between 1 and %d", p.ItemsPerParticipant, MaxItemsPerParticipant))
	}
	if p.K < 1 || p.K > MaxK {
		errs = append(errs, fmt.Sprintf("k: %d is not between 1 and %d", p.K, MaxK))
	}
	if _, err := ParseDesign(p.Randomise); err != nil {
		errs = append(errs, err.Error())
	}
	if len(p.Conditions) == 0 {
		errs = append(errs, "accuracy: give at least one condition's accuracy")
	}
	for i, c := range p.Conditions {
		if !slices.Contains(ConditionNames, c) {
			errs = append(errs, fmt.Sprintf("conditions[%d]: %q is not one of %s", i, c, strings.Join(ConditionNames, ", ")))
		} else if slices.Index(p.Conditions, c) != i {
			errs = append(errs, fmt.Sprintf("conditions[%d]: %q is given twice", i, c))
		}
		if _, ok := p.Accuracy[c]; !ok {
			errs = append(errs, fmt.Sprintf("accuracy.%s: missing", c))
		}
	}
	for name, v := range p.Accuracy {
		if !slices.Contains(p.Conditions, name) {
			errs = append(errs, fmt.Sprintf("accuracy.%s: not a condition of the plan", name))
		}
		if !isShare(v) {
			errs = append(errs, fmt.Sprintf("accuracy.%s: %v is not between 0 and 1", name, v))
		}
	}
	for name, v := range map[string]float64{"screening_pass": p.ScreeningPass, "attention_pass": p.AttentionPass,
		"follow_when_visible": p.FollowWhenVisible, "assistant_accuracy": p.AssistantAccuracy, "unfaithful_share": p.UnfaithfulShare} {
		if !isShare(v) {
			errs = append(errs, fmt.Sprintf("%s: %v is not between 0 and 1", name, v))
		}
	}
	if p.SecondsPerSentence < 0 || math.IsInf(p.SecondsPerSentence, 0) || math.IsNaN(p.SecondsPerSentence) {
		errs = append(errs, "seconds_per_sentence: must be a non-negative number")
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return fmt.Errorf("plan: %s", strings.Join(errs, "; "))
	}
	return nil
}

func isShare(v float64) bool { return v >= 0 && v <= 1 }
