package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/studies"
)

// CrowdReport is a study's crowd aggregation, over the sentences that two
// participants or more labelled: each kept participant's
// estimated competence under Dawid–Skene and MACE, and how well each way
// of turning the participants' labels into one label per sentence
// (majority, Dawid–Skene, MACE) agrees with gold where there is gold.
type CrowdReport struct {
	Sentences    int                `json:"sentences"` // sentences labelled by two participants or more
	Labels       int                `json:"labels"`
	Participants []CrowdParticipant `json:"participants"`
	Methods      []CrowdMethod      `json:"methods"`
	// Uses names the method the report proposes labels by, and Why says
	// why.
	Uses string `json:"uses"`
	Why  string `json:"why"`
}

// CrowdParticipant is one participant's estimated competence: the
// probability of a right label under Dawid–Skene, and 1 − the
// probability of answering at random under MACE.
type CrowdParticipant struct {
	number         int     // from 0, the order of the list
	Participant    string  `json:"participant"` // "Participant N"
	Labels         int     `json:"labels"`
	DawidSkene     float64 `json:"dawid_skene_competence"`
	MACE           float64 `json:"mace_competence"`
	MajorityAgrees float64 `json:"agreement_with_majority"` // share of their labels equal to the sentence's majority label
}

// CrowdMethod is one aggregation's agreement with gold over the sentences
// that have gold: a sentence the method leaves undecided (a tied
// majority) counts as wrong.
type CrowdMethod struct {
	Method           string  `json:"method"` // majority, dawid_skene, mace
	Decided          int     `json:"decided"`
	WithGold         int     `json:"with_gold"`
	Accuracy         float64 `json:"accuracy"`
	BalancedAccuracy float64 `json:"balanced_accuracy"`
}

// minGoldToChoose is how many sentences with gold the report needs to
// choose a method by its agreement with gold.
const minGoldToChoose = 20

// crowdReport aggregates a study's labels (see docs/studies.md).
func (a *App) crowdReport(ctx context.Context, st *studies.Study) (*CrowdReport, error) {
	all, err := a.Studies().CrowdLabels(ctx, st)
	if err != nil || len(all) == 0 {
		return nil, domain.Op("App.crowdReport", err)
	}
	// Aggregation weighs participants against each other: only sentences
	// labelled by two participants or more tell anything of anyone's
	// competence (with one label each, every model fits any competence).
	per := map[int64]int{}
	for _, l := range all {
		per[l.Sentence]++
	}
	var labels []studies.CrowdLabel
	for _, l := range all {
		if per[l.Sentence] >= 2 {
			labels = append(labels, l)
		}
	}
	if len(labels) == 0 {
		return &CrowdReport{Participants: []CrowdParticipant{}, Methods: []CrowdMethod{}, Uses: "none",
			Why: fmt.Sprintf("no sentence has labels from two participants yet (%d labels, each on a sentence of its own): aggregation needs overlap", len(all))}, nil
	}
	var pids, sids []string
	number := map[int64]int{}
	for _, l := range labels {
		pids = append(pids, strconv.FormatInt(l.Participant, 10))
		sids = append(sids, strconv.FormatInt(l.Sentence, 10))
		number[l.Participant] = l.Number
	}
	pIndex, sIndex := experiment.NewIndex(pids), experiment.NewIndex(sids)
	gold := make([]int, sIndex.Len())
	for i := range gold {
		gold[i] = -1
	}
	votes := make([][2]int, sIndex.Len())
	crowd := make([]experiment.CrowdLabel, len(labels))
	class := func(label string) int {
		if label == domain.LabelUnfaithful {
			return 1
		}
		return 0
	}
	for n, l := range labels {
		p, s := pIndex.Of(pids[n]), sIndex.Of(sids[n])
		crowd[n] = experiment.CrowdLabel{Participant: p, Item: s, Class: class(l.Label)}
		votes[s][crowd[n].Class]++
		if l.Gold != "" {
			gold[s] = class(l.Gold)
		}
	}
	ds, err := experiment.DawidSkene(crowd, pIndex.Len(), sIndex.Len(), 2)
	if err != nil {
		return nil, domain.Op("App.crowdReport", err)
	}
	mace, err := experiment.MACE(crowd, pIndex.Len(), sIndex.Len(), 2)
	if err != nil {
		return nil, domain.Op("App.crowdReport", err)
	}
	majority := make([]int, sIndex.Len())
	for s, v := range votes {
		switch {
		case v[1] > v[0]:
			majority[s] = 1
		case v[0] > v[1]:
			majority[s] = 0
		default:
			majority[s] = -1 // tied: undecided
		}
	}
	rep := &CrowdReport{Sentences: sIndex.Len(), Labels: len(labels)}
	agree := make([][2]int, pIndex.Len())
	for _, c := range crowd {
		agree[c.Participant][1]++
		if majority[c.Item] == c.Class {
			agree[c.Participant][0]++
		}
	}
	for p := range pIndex.Len() {
		id, _ := strconv.ParseInt(pIndex.ID(p), 10, 64)
		rep.Participants = append(rep.Participants, CrowdParticipant{number: number[id], Participant: fmt.Sprintf("Participant %d", number[id]+1), Labels: agree[p][1],
			DawidSkene: ds.Competence[p], MACE: mace.Competence[p], MajorityAgrees: float64(agree[p][0]) / float64(agree[p][1])})
	}
	slices.SortFunc(rep.Participants, func(x, y CrowdParticipant) int { return x.number - y.number })
	for _, m := range []struct {
		name  string
		label func(int) int
	}{{"majority", func(s int) int { return majority[s] }}, {"dawid_skene", ds.Label}, {"mace", mace.Label}} {
		rep.Methods = append(rep.Methods, agreement(m.name, m.label, gold))
	}
	rep.Uses, rep.Why = "dawid_skene", "Dawid–Skene by default: it weighs each participant by their estimated confusion between the two labels"
	if withGold := rep.Methods[0].WithGold; withGold >= minGoldToChoose {
		best := rep.Methods[1] // Dawid–Skene first among equals
		for _, m := range []CrowdMethod{rep.Methods[2], rep.Methods[0]} {
			if m.BalancedAccuracy > best.BalancedAccuracy {
				best = m
			}
		}
		rep.Uses = best.Method
		rep.Why = fmt.Sprintf("the highest balanced accuracy against gold on the %d sentences with gold (ties go to Dawid–Skene)", withGold)
	} else {
		rep.Why += fmt.Sprintf("; too few sentences with gold (%d, fewer than %d) to choose by agreement with gold", withGold, minGoldToChoose)
	}
	return rep, nil
}

// agreement scores one aggregation's labels against gold.
func agreement(name string, label func(int) int, gold []int) CrowdMethod {
	m := CrowdMethod{Method: name}
	var right, n [2]int
	for s, g := range gold {
		l := label(s)
		if l >= 0 {
			m.Decided++
		}
		if g < 0 {
			continue
		}
		m.WithGold++
		n[g]++
		if l == g {
			right[g]++
		}
	}
	if m.WithGold > 0 {
		m.Accuracy = float64(right[0]+right[1]) / float64(m.WithGold)
		var rec []float64
		for k := range 2 {
			if n[k] > 0 {
				rec = append(rec, float64(right[k])/float64(n[k]))
			}
		}
		for _, r := range rec {
			m.BalancedAccuracy += r / float64(len(rec))
		}
	}
	return m
}
