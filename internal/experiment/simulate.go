package experiment

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Simulate draws the labels of a study played by plan: the participants
// who completed it and were kept (screening and attention checks are the
// load generator's part, not drawn here). Items are dealt in turn, item
// (p·n + j) mod N being participant p's j-th of n, with N chosen so each
// item gets about k labels; an item's gold is unfaithful with the plan's
// unfaithful share and the assistant's label is right with its accuracy.
// A participant who sees the assistant (verdict, debate, or after the
// first label) copies its label with probability follow_when_visible,
// and is otherwise right with the condition's accuracy. Active seconds
// are log-normal with the plan's median.
func Simulate(p *Plan) *Data {
	design, _ := ParseDesign(p.Randomise)
	d := &Data{Participants: p.Participants, Conditions: slices.Clone(p.Conditions), Baseline: slices.Index(p.Conditions, "none"), Design: design}
	total := p.Participants * p.ItemsPerParticipant
	d.Items = max(1, (total+p.K-1)/p.K)
	rng := rand.New(rand.NewPCG(p.Seed, 0x5eed))
	gold := make([]bool, d.Items)
	asst := make([]int8, d.Items)
	for i := range gold {
		gold[i] = rng.Float64() < p.UnfaithfulShare
		right := rng.Float64() < p.AssistantAccuracy
		asst[i] = Faithful
		if gold[i] == right {
			asst[i] = Unfaithful
		}
	}
	slot := make([]int, d.Items)
	for part := range p.Participants {
		for j := range p.ItemsPerParticipant {
			item := (part*p.ItemsPerParticipant + j) % d.Items
			var c int
			if design == ByParticipant {
				c = ParticipantCondition(p.Seed, part, len(p.Conditions))
			} else {
				c = ItemCondition(p.Seed, item, slot[item], len(p.Conditions))
			}
			slot[item]++
			name := p.Conditions[c]
			var label bool
			if name != "none" && rng.Float64() < p.FollowWhenVisible {
				label = asst[item] == Unfaithful
			} else if rng.Float64() < p.Accuracy[name] {
				label = gold[item]
			} else {
				label = !gold[item]
			}
			d.Observations = append(d.Observations, Observation{
				Participant: part, Item: item, Condition: c, Label: label, Gold: gold[item],
				Assistant: asst[item], Seconds: p.SecondsPerSentence * math.Exp(0.5*rng.NormFloat64()),
			})
		}
	}
	return d
}

// Planted returns the value a figure takes in expectation for a
// condition of the plan, under the model [Simulate] draws from; NaN for
// figures the model does not fix in closed form. With a the condition's
// accuracy, f the chance of following (0 in "none"), q the assistant's
// accuracy and s the unfaithful share:
//
//	accuracy = balanced accuracy = q·f + (1−f)·a
//	followed when right = f + (1−f)·a
//	followed when wrong = f + (1−f)·(1−a)
//	wrong equal assistant = (1−q)·(f + (1−f)·(1−a)) / (1 − accuracy)
//	unfaithful F1 from recall r = accuracy and precision s·r / (s·r + (1−s)·(1−r))
//	seconds per sentence = the plan's median
func Planted(p *Plan, condition string, f Figure) float64 {
	a, q, s := p.Accuracy[condition], p.AssistantAccuracy, p.UnfaithfulShare
	follow := p.FollowWhenVisible
	if condition == "none" {
		follow = 0
	}
	acc := q*follow + (1-follow)*a
	switch f {
	case Accuracy, BalancedAccuracy:
		return acc
	case FollowedWhenRight:
		return follow + (1-follow)*a
	case FollowedWhenWrong:
		return follow + (1-follow)*(1-a)
	case WrongEqualAssistant:
		return ratio((1-q)*(follow+(1-follow)*(1-a)), 1-acc)
	case UnfaithfulF1:
		prec := ratio(s*acc, s*acc+(1-s)*(1-acc))
		return ratio(2*prec*acc, prec+acc)
	case SecondsPerSentence:
		return p.SecondsPerSentence
	}
	return math.NaN()
}
