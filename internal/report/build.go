package report

import (
	"cmp"
	"slices"
	"strings"

	"annotate/internal/agreement"
	"annotate/internal/iaa"
	"annotate/internal/tasks"
)

// Options chooses what a report covers.
type Options struct {
	// Round is the name of the round to report on; "" covers every round,
	// taking each annotator's latest assignment of a summary.
	Round string
	// Dimension keeps only one dimension: a name (both levels, e.g.
	// "faithfulness") or a name and level ("faithfulness@summary"). ""
	// keeps all.
	Dimension string
	// IncludeDrafts counts the labels of assignments not yet submitted;
	// by default only submitted work counts, on every dimension alike.
	IncludeDrafts bool
	// Bootstrap is the number of replicates behind each α interval; 0
	// leaves α without one.
	Bootstrap int
	// BootstrapMethod is what the bootstrap resamples: units with all
	// their labels (the default) or pairable values.
	BootstrapMethod iaa.BootstrapMethod
	// Seed makes the bootstrap reproducible.
	Seed uint64
}

// Filter is what the report's data must hold for these options: the
// labels of one round (or all) and of submitted work only unless drafts
// count.
func (o Options) Filter() tasks.ReportFilter {
	return tasks.ReportFilter{Round: o.Round, SubmittedOnly: !o.IncludeDrafts}
}

// DefaultBootstrap is the number of bootstrap replicates the command line
// and the web pages use unless told otherwise.
const DefaultBootstrap = 1000

// index holds the project's labels keyed for the report's lookups. Labels
// are not copied: each assignment's are a slice of the data's, which are
// ordered by assignment and sentence.
type index struct {
	data             *tasks.ReportData
	settings         tasks.Settings
	labels           map[int64][]tasks.ReportLabel // by assignment, by sentence id
	labelSent        map[int64][]int32             // by assignment: each label's sentence position, −1 if unknown
	labelMask        map[int64][]uint64            // by assignment: each label's error-type set as a bit mask
	sentences        map[int64]*tasks.ReportSentence
	summarySentences map[int64][]int64 // sentence ids of a summary, in order
	summaryLabels    map[int64]tasks.ReportSummaryLabel
	links            map[int64]map[[2]int64]bool // by assignment: (key fact, sentence)

	// Dense positions, so that the sentence and summary dimensions index
	// their units without a map: data.Sentences[i] is sentence unit i,
	// summaryIDs[j] summary unit j, whose sentences are the positions
	// summaryFirst[j] onwards, summaryLen[j] of them.
	sentPos                   map[int64]int32
	summaryPos                map[int64]int32
	summaryIDs                []int64
	summaryFirst, summaryLen  []int32
	sentenceKeys, summaryKeys []unitKey
	gold                      []*label // by sentence position, nil without gold
}

func newIndex(d *tasks.ReportData, set tasks.Settings) *index {
	x := &index{
		data: d, settings: set,
		labels:    map[int64][]tasks.ReportLabel{},
		sentences: map[int64]*tasks.ReportSentence{}, summarySentences: map[int64][]int64{},
		summaryLabels: map[int64]tasks.ReportSummaryLabel{}, links: map[int64]map[[2]int64]bool{},
	}
	x.labelSent = map[int64][]int32{}
	x.sentPos, x.summaryPos = map[int64]int32{}, map[int64]int32{}
	slices.SortStableFunc(d.Sentences, func(a, b tasks.ReportSentence) int {
		return cmp.Or(cmp.Compare(a.SummaryID, b.SummaryID), cmp.Compare(a.Index, b.Index))
	})
	x.sentenceKeys = make([]unitKey, len(d.Sentences))
	x.gold = make([]*label, len(d.Sentences))
	for i := range d.Sentences {
		s := &d.Sentences[i]
		x.sentences[s.ID] = s
		x.sentPos[s.ID] = int32(i)
		x.sentenceKeys[i] = unitKey{s.ID, 0}
		x.gold[i] = goldOf(s)
		x.summarySentences[s.SummaryID] = append(x.summarySentences[s.SummaryID], s.ID)
		j, ok := x.summaryPos[s.SummaryID]
		if !ok {
			j = int32(len(x.summaryIDs))
			x.summaryPos[s.SummaryID] = j
			x.summaryIDs = append(x.summaryIDs, s.SummaryID)
			x.summaryKeys = append(x.summaryKeys, unitKey{s.SummaryID, 0})
			x.summaryFirst = append(x.summaryFirst, int32(i))
			x.summaryLen = append(x.summaryLen, 0)
		}
		x.summaryLen[j]++
	}
	// Summaries assigned but without sentences still are units.
	for _, a := range d.Assignments {
		if _, ok := x.summaryPos[a.SummaryID]; !ok {
			x.summaryPos[a.SummaryID] = int32(len(x.summaryIDs))
			x.summaryIDs = append(x.summaryIDs, a.SummaryID)
			x.summaryKeys = append(x.summaryKeys, unitKey{a.SummaryID, 0})
			x.summaryFirst = append(x.summaryFirst, 0)
			x.summaryLen = append(x.summaryLen, 0)
		}
	}
	ls := d.Labels
	slices.SortStableFunc(ls, func(a, b tasks.ReportLabel) int {
		return cmp.Or(cmp.Compare(a.AssignmentID, b.AssignmentID), cmp.Compare(a.SentenceID, b.SentenceID))
	})
	pos := make([]int32, len(ls))
	masks := make([]uint64, len(ls))
	codes := errorCodes(set)
	maskOf := map[*string]uint64{} // error-type lists are shared between labels
	for i := range ls {
		p, ok := x.sentPos[ls[i].SentenceID]
		if !ok {
			p = -1
		}
		pos[i] = p
		if ts := ls[i].ErrorTypes; len(ts) > 0 {
			m, ok := maskOf[&ts[0]]
			if !ok {
				m = typeMask(ts, codes)
				maskOf[&ts[0]] = m
			}
			masks[i] = m
		}
	}
	x.labelMask = map[int64][]uint64{}
	for i := 0; i < len(ls); {
		j := i
		for j < len(ls) && ls[j].AssignmentID == ls[i].AssignmentID {
			j++
		}
		x.labels[ls[i].AssignmentID] = ls[i:j:j]
		x.labelSent[ls[i].AssignmentID] = pos[i:j:j]
		x.labelMask[ls[i].AssignmentID] = masks[i:j:j]
		i = j
	}
	for _, l := range d.SummaryLabels {
		x.summaryLabels[l.AssignmentID] = l
	}
	for _, k := range d.KeyFactLinks {
		if x.links[k.AssignmentID] == nil {
			x.links[k.AssignmentID] = map[[2]int64]bool{}
		}
		x.links[k.AssignmentID][[2]int64{k.KeyFactID, k.SentenceID}] = true
	}
	return x
}

// goldLabel is a sentence's gold as a label, nil when it has none.
func (x *index) goldLabel(sid int64) *label {
	return goldOf(x.sentences[sid])
}

func goldOf(s *tasks.ReportSentence) *label {
	if s == nil || s.Gold == nil {
		return nil
	}
	g := s.Gold
	return &label{ReportLabel: &tasks.ReportLabel{Label: g.Label, ErrorTypes: g.ErrorTypes, Ambiguous: g.Ambiguous, AmbiguityType: g.AmbiguityType}}
}

// scope is the assignments a report (or one round of the trend) covers and
// the annotators behind them, one coder each.
type scope struct {
	assignments []tasks.ReportAssignment
	coders      []string
	coderOf     map[string]int
	// parts holds, for each assignment, what the dimensions read, looked
	// up once per scope rather than once per dimension.
	parts  []part
	labels int // sentence labels in scope
}

// part is one assignment of a scope with its coder, summary position and
// labels (with each label's sentence position and error-type set).
type part struct {
	coder   int
	summary int32
	labels  []tasks.ReportLabel
	pos     []int32
	masks   []uint64
}

// scope selects the assignments of one round, or with round 0 each
// annotator's latest assignment of each summary across rounds; without
// drafts, only submitted assignments.
func (x *index) scope(round int64, drafts bool) *scope {
	sc := &scope{coderOf: map[string]int{}}
	counts := func(a tasks.ReportAssignment) bool { return drafts || a.Status == tasks.StatusSubmitted }
	if round != 0 {
		for _, a := range x.data.Assignments {
			if a.RoundID == round && counts(a) {
				sc.assignments = append(sc.assignments, a)
			}
		}
	} else {
		latest := map[[2]int64]int{}
		for _, a := range x.data.Assignments {
			if !counts(a) {
				continue
			}
			k := [2]int64{a.UserID, a.SummaryID}
			if i, ok := latest[k]; !ok || a.RoundID > sc.assignments[i].RoundID {
				if ok {
					sc.assignments[i] = a
				} else {
					latest[k] = len(sc.assignments)
					sc.assignments = append(sc.assignments, a)
				}
			}
		}
	}
	for _, a := range sc.assignments {
		if _, ok := sc.coderOf[a.Username]; !ok {
			sc.coderOf[a.Username] = 0
			sc.coders = append(sc.coders, a.Username)
		}
	}
	slices.Sort(sc.coders)
	for i, c := range sc.coders {
		sc.coderOf[c] = i
	}
	sc.parts = make([]part, len(sc.assignments))
	for i, a := range sc.assignments {
		sc.parts[i] = part{coder: sc.coderOf[a.Username], summary: x.summaryPos[a.SummaryID],
			labels: x.labels[a.ID], pos: x.labelSent[a.ID], masks: x.labelMask[a.ID]}
		sc.labels += len(sc.parts[i].labels)
	}
	return sc
}

// Build computes the report of a project from its labels: the figures of
// the chosen round (or all rounds), the trend over rounds and the
// disagreement list. Dimensions are computed one at a time, each from
// its sparse ratings, so memory holds the labels and one dimension. The
// trend covers every round when the report covers all rounds, and the
// chosen round otherwise (the data may then hold that round only: see
// [Options.Filter]). An unknown round is ENotFound, an unknown dimension
// EInvalid.
func Build(project string, d *tasks.ReportData, set tasks.Settings, opt Options) (*Report, error) {
	x := newIndex(d, set)
	rep := &Report{
		Project: project, Round: opt.Round, Bootstrap: opt.Bootstrap, SubmittedOnly: !opt.IncludeDrafts,
		Rounds: []RoundInfo{}, Annotators: []string{}, Dimensions: []Dimension{}, PerAnnotator: []Annotator{},
		Trend: []TrendRound{}, Disagreements: []Disagreement{},
	}
	if opt.Bootstrap > 0 {
		rep.BootstrapMethod = opt.BootstrapMethod.String()
	}
	var roundID int64
	for _, r := range d.Rounds {
		rep.Rounds = append(rep.Rounds, RoundInfo{Name: r.Name, Kind: r.Kind, Status: r.Status})
		if r.Name == opt.Round {
			roundID = r.ID
		}
	}
	if opt.Round != "" && roundID == 0 {
		return nil, tasks.Errorf(tasks.ENotFound, "round %q not found", opt.Round)
	}
	sc := x.scope(roundID, opt.IncludeDrafts)
	rep.Annotators = append(rep.Annotators, sc.coders...)
	srcs, err := keep(x.sources(), opt.Dimension)
	if err != nil {
		return nil, err
	}
	boot := bootstrap{replicates: opt.Bootstrap, seed: opt.Seed, method: opt.BootstrapMethod}
	rep.PerAnnotator = newAnnotators(sc, x)
	for _, src := range srcs {
		rt := x.ratings(src, sc)
		rep.Dimensions = append(rep.Dimensions, dimension(rt, sc.coders, boot))
		addAnnotators(rep.PerAnnotator, rt)
	}
	finishAnnotators(rep.PerAnnotator)
	rep.Assistant = x.assistant(sc)
	for _, r := range d.Rounds {
		if opt.Round != "" && r.ID != roundID {
			continue
		}
		tr := TrendRound{Round: r.Name, Kind: r.Kind, Dimensions: []TrendPoint{}}
		rsc := x.scope(r.ID, opt.IncludeDrafts)
		for _, src := range srcs {
			rt := x.ratings(src, rsc)
			st, _ := statistics(rt, bootstrap{})
			units, _, n := counts(rt)
			tr.Dimensions = append(tr.Dimensions, TrendPoint{Dimension: rt.spec.name, Level: rt.spec.level, Units: units, Ratings: n, Statistics: st})
		}
		rep.Trend = append(rep.Trend, tr)
	}
	rep.Disagreements, rep.DisagreementsTotal = x.disagreements(sc)
	return rep, nil
}

// keep filters dimensions by name or name@level.
func keep(all []source, want string) ([]source, error) {
	if want == "" {
		return all, nil
	}
	var names []string
	var kept []source
	for _, rt := range all {
		if rt.spec.name == want || rt.spec.key() == want {
			kept = append(kept, rt)
		}
		if !slices.Contains(names, rt.spec.name) {
			names = append(names, rt.spec.name)
		}
	}
	if len(kept) == 0 {
		return nil, tasks.Errorf(tasks.EInvalid, "unknown dimension %q (this project has %s; add @sentence or @summary for one level)", want, strings.Join(names, ", "))
	}
	return kept, nil
}

// counts returns the units with a rating, those with two or more, and the
// ratings of a dimension.
func counts(rt ratings) (units, pairable, n int) {
	c := rt.c
	for u := range c.Units() {
		m := c.Start[u+1] - c.Start[u]
		if m > 0 {
			units++
		}
		if m > 1 {
			pairable++
		}
		n += m
	}
	return units, pairable, n
}

func dimension(rt ratings, coders []string, boot bootstrap) Dimension {
	d := Dimension{Name: rt.spec.name, Title: rt.spec.title, Level: rt.spec.level, Scale: rt.spec.scale, Values: []ValueUse{}, Pairwise: []agreement.Pair{}}
	d.Units, d.Pairable, d.Ratings = counts(rt)
	use := make([]int, len(rt.c.Values))
	for _, k := range rt.c.Code {
		use[k]++
	}
	for k, v := range rt.c.Values {
		d.Values = append(d.Values, ValueUse{Value: rt.spec.valueName(v), Ratings: use[k]})
	}
	st, pairs := statistics(rt, boot)
	d.Statistics = st
	for _, p := range pairs {
		out := agreement.Pair{Coders: [2]string{coders[p.A], coders[p.B]}, N: p.N}
		if p.Err != nil {
			out.Undefined = undefined(p.Err).Undefined
		} else if isFinite(p.Kappa.Value) && isFinite(p.Kappa.SE) {
			out.CohenKappa, out.SE = ptr(p.Kappa.Value), ptr(p.Kappa.SE)
			out.CI95 = &[2]float64{p.Kappa.Low, p.Kappa.High}
		} else {
			out.Undefined = "not a finite number"
		}
		d.Pairwise = append(d.Pairwise, out)
	}
	return d
}

// DimensionNames lists the dimensions a project's report can show, each
// name once with its title, in report order, without reading any label
// (for a menu of dimensions).
func DimensionNames(set tasks.Settings) [][2]string {
	x := newIndex(&tasks.ReportData{}, set)
	var out [][2]string
	for _, src := range x.sources() {
		if !slices.ContainsFunc(out, func(n [2]string) bool { return n[0] == src.spec.name }) {
			out = append(out, [2]string{src.spec.name, src.spec.title})
		}
	}
	return out
}
