package report

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"annotate/internal/agreement"
	"annotate/internal/domain"
	"annotate/internal/iaa"
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
	// OneCore reads on one database connection and builds on one
	// processor, for a report built by a server while others work: every
	// computation runs on the calling goroutine, which leaves the other
	// processors to their requests. It changes no figure.
	OneCore bool
	// TakeLabels lets Build drop the data's labels (set d.Labels to nil)
	// once its index holds what the report reads of them, so that they
	// can be collected while the report is built: 60 MB of the
	// 1.5M-label project's, the largest part of its data. For a caller
	// that builds one report from the data it read.
	TakeLabels bool
}

// Filter is what the report's data must hold for these options: the
// labels of one round (or all) and of submitted work only unless drafts
// count.
func (o Options) Filter() domain.ReportFilter {
	return domain.ReportFilter{Round: o.Round, SubmittedOnly: !o.IncludeDrafts, OneConnection: o.OneCore}
}

// DefaultBootstrap is the number of bootstrap replicates the command line
// and the web pages use unless told otherwise.
const DefaultBootstrap = 1000

// index holds the project's labels keyed for the report's lookups. Labels
// are not copied: each assignment's are a slice of the data's, which
// hold each assignment's together, beside the coded view of each (what
// the dimensions read, with its sentence position).
type index struct {
	data     *domain.ReportData
	settings domain.Settings
	// views[i] is data.Labels[i] as the value functions read it; the
	// labels of assignment data.Assignments[j] are those from labelLo[j]
	// to labelHi[j].
	views            []label
	labelLo, labelHi []int32
	// strays are the sentences of the labels on sentences the data does
	// not hold (pos −1), by the label's place.
	strays       map[int32]int64
	strs         stringCodes // codes of data.Strings
	summaryLabel []int32     // by assignment position: its summary label's position in data.SummaryLabels, −1 for none
	// The key-fact links of assignment data.Assignments[j] are
	// data.KeyFactLinks from linkLo[j] to linkHi[j].
	linkLo, linkHi []int32

	// Dense positions, so that the sentence and summary dimensions index
	// their units without a map: data.Sentences[i] is sentence unit i,
	// summaryIDs[j] summary unit j, whose sentences are the positions
	// summaryFirst[j] onwards, summaryLen[j] of them.
	sentPos                  positions
	summaryPos               positions
	summaryIDs               []int64
	summaryFirst, summaryLen []int32
	// keyFacts are, by summary position, the key facts of the summary
	// (data.SummaryKeyFacts), looked up once for the dimensions.
	keyFacts                  [][]int64
	sentenceKeys, summaryKeys []unitKey
	gold                      []*label // by sentence position, nil without gold
	// goldFaith and assistFaith are, by sentence position, the
	// faithfulness code of the gold label and of the assistant's, −1 for
	// none.
	goldFaith, assistFaith []int8
}

func newIndex(d *domain.ReportData, set domain.Settings) *index { return newIndexOn(d, set, 1) }

// newIndexOn is newIndex on workers goroutines: with two or more, the
// labels' views are made while the sentences are indexed (on the 1.5M-label
// project, 59 and 32 ms one after the other).
func newIndexOn(d *domain.ReportData, set domain.Settings, workers int) *index {
	x := &index{data: d, settings: set}
	bySentence := func(a, b domain.ReportSentence) int {
		return cmp.Or(cmp.Compare(a.SummaryID, b.SummaryID), cmp.Compare(a.Index, b.Index))
	}
	if !slices.IsSortedFunc(d.Sentences, bySentence) {
		slices.SortStableFunc(d.Sentences, bySentence)
	}
	x.sentPos = newPositions(len(d.Sentences), func(i int) int64 { return d.Sentences[i].ID })
	if !slices.IsSortedFunc(d.Assignments, func(a, b domain.ReportAssignment) int { return cmp.Compare(a.ID, b.ID) }) {
		panic("report: ReportData.Assignments not in id order")
	}
	codes := errorCodes(set)
	inParallel(workers, 2, func(part int) {
		if part == 0 {
			x.indexSentences(codes)
		} else {
			x.indexLabels(codes)
		}
	})
	return x
}

// indexSentences indexes the data's sentences (in summary order, their
// positions known): their keys, gold and assistant's labels, and the
// summaries, those assigned without sentences last.
func (x *index) indexSentences(codes map[string]int) {
	d := x.data
	x.sentenceKeys = make([]unitKey, len(d.Sentences))
	x.gold = make([]*label, len(d.Sentences))
	// Sized first: x.gold points into golds, so growing it by append
	// would keep every outgrown array alive (8 MB of 500,000 gold
	// sentences).
	n := 0
	for i := range d.Sentences {
		if d.Sentences[i].Gold != nil {
			n++
		}
	}
	golds := make([]label, 0, n)
	x.goldFaith, x.assistFaith = make([]int8, len(d.Sentences)), make([]int8, len(d.Sentences))
	for i := range d.Sentences {
		s := &d.Sentences[i]
		x.sentenceKeys[i] = unitKey{s.ID, 0}
		x.goldFaith[i], x.assistFaith[i] = -1, -1
		if s.Gold != nil {
			golds = append(golds, goldView(s.Gold, codes))
			x.gold[i] = &golds[len(golds)-1]
			x.goldFaith[i] = faithCode(s.Gold.Label)
		}
		// The sentences are in summary order: a summary's come together.
		if n := len(x.summaryIDs); n == 0 || x.summaryIDs[n-1] != s.SummaryID {
			x.summaryIDs = append(x.summaryIDs, s.SummaryID)
			x.summaryKeys = append(x.summaryKeys, unitKey{s.SummaryID, 0})
			x.summaryFirst = append(x.summaryFirst, int32(i))
			x.summaryLen = append(x.summaryLen, 0)
		}
		x.summaryLen[len(x.summaryLen)-1]++
	}
	// The assistant's labels, in sentence id order, find their sentences
	// by position; most are one of a few shared strings.
	var last string
	lastCode := int8(-1)
	for i, id := range d.Assistant.IDs {
		if l := d.Assistant.Label(i); l != last {
			last, lastCode = l, faithCode(l)
		}
		if p, ok := x.sentPos.of(id); ok {
			x.assistFaith[p] = lastCode
		}
	}
	// Summaries assigned but without sentences still are units, after
	// the others, in the order of their first assignment.
	x.summaryPos = newPositions(len(x.summaryIDs), func(i int) int64 { return x.summaryIDs[i] })
	var bare map[int64]bool
	for _, a := range d.Assignments {
		if _, ok := x.summaryPos.of(a.SummaryID); ok || bare[a.SummaryID] {
			continue
		}
		if bare == nil {
			bare = map[int64]bool{}
		}
		bare[a.SummaryID] = true
		x.summaryIDs = append(x.summaryIDs, a.SummaryID)
		x.summaryKeys = append(x.summaryKeys, unitKey{a.SummaryID, 0})
		x.summaryFirst = append(x.summaryFirst, 0)
		x.summaryLen = append(x.summaryLen, 0)
	}
	if bare != nil {
		x.summaryPos = newPositions(len(x.summaryIDs), func(i int) int64 { return x.summaryIDs[i] })
	}
	if d.SummaryKeyFacts != nil {
		x.keyFacts = make([][]int64, len(x.summaryIDs))
		for u, id := range x.summaryIDs {
			x.keyFacts[u] = d.SummaryKeyFacts[id]
		}
	}
}

// indexLabels finds each assignment's labels, sorting them by assignment
// if they are not, makes their views (each with its sentence's position),
// and finds each assignment's summary label and key-fact links.
func (x *index) indexLabels(codes map[string]int) {
	d := x.data
	ls := d.Labels
	if !x.groupLabels() {
		// Not each assignment's labels together: sort them so.
		slices.SortStableFunc(ls, func(a, b domain.ReportLabel) int {
			return cmp.Or(cmp.Compare(a.AssignmentID, b.AssignmentID), cmp.Compare(a.SentenceID, b.SentenceID))
		})
		x.groupLabels()
	}
	x.views = make([]label, len(ls))
	x.strs = newStringCodes(d.Strings)
	masks := make([]uint64, len(d.TypeLists))
	for i, ts := range d.TypeLists {
		masks[i] = typeMask(ts, codes)
	}
	for i := range ls {
		l := &ls[i]
		p, ok := x.sentPos.of(l.SentenceID)
		if !ok {
			p = -1
		}
		x.views[i] = x.strs.view(l, masks)
		x.views[i].pos = p
		if p < 0 {
			if x.strays == nil {
				x.strays = map[int32]int64{}
			}
			x.strays[int32(i)] = l.SentenceID
		}
	}
	x.summaryLabel = make([]int32, len(d.Assignments))
	for j := range x.summaryLabel {
		x.summaryLabel[j] = -1
	}
	j := -1
	for i, l := range d.SummaryLabels {
		var ok bool
		if j, ok = assignmentAfter(d.Assignments, l.AssignmentID, j); ok {
			x.summaryLabel[j] = int32(i)
		}
	}
	x.groupLinks()
}

// groupLinks finds each assignment's key-fact links in the data, sorting
// them by assignment first if they are not.
func (x *index) groupLinks() {
	ks := x.data.KeyFactLinks
	order := func(a, b domain.ReportKeyFactLink) int { return cmp.Compare(a.AssignmentID, b.AssignmentID) }
	if !slices.IsSortedFunc(ks, order) {
		slices.SortStableFunc(ks, order)
	}
	x.linkLo, x.linkHi, _ = byAssignment(x.data.Assignments, ks, func(k *domain.ReportKeyFactLink) int64 { return k.AssignmentID })
}

// linksOf returns the key-fact links of the scope's assignment i.
func (x *index) linksOf(sc *scope, i int) []domain.ReportKeyFactLink {
	j := sc.which[i]
	return x.data.KeyFactLinks[x.linkLo[j]:x.linkHi[j]]
}

// assignmentAfter finds the assignment with id in as (in id order),
// trying first the one after position prev: the labels and summary
// labels of the data come by assignment, mostly in id order, where a
// search of hundreds of thousands of assignments costs a cache miss a
// step. Without it, the position returned is prev.
func assignmentAfter(as []domain.ReportAssignment, id int64, prev int) (int, bool) {
	if next := prev + 1; next < len(as) && as[next].ID == id {
		return next, true
	}
	k, ok := slices.BinarySearchFunc(as, id, func(a domain.ReportAssignment, id int64) int { return cmp.Compare(a.ID, id) })
	if !ok {
		return prev, false
	}
	return k, true
}

// groupLabels finds each assignment's labels in the data, which holds
// them together; it reports false if an assignment's labels are in more
// than one place.
func (x *index) groupLabels() bool {
	var ok bool
	x.labelLo, x.labelHi, ok = byAssignment(x.data.Assignments, x.data.Labels, func(l *domain.ReportLabel) int64 { return l.AssignmentID })
	return ok
}

// byAssignment finds the rows of each assignment of as (in id order) in
// rows, which hold each assignment's together: those of as[k] are
// rows[lo[k]:hi[k]]. ok is false when an assignment's rows are in more
// than one place.
func byAssignment[T any](as []domain.ReportAssignment, rows []T, assignment func(*T) int64) (lo, hi []int32, ok bool) {
	lo, hi = make([]int32, len(as)), make([]int32, len(as))
	k := -1
	for i := 0; i < len(rows); {
		id := assignment(&rows[i])
		j := i + 1
		for j < len(rows) && assignment(&rows[j]) == id {
			j++
		}
		var found bool
		if k, found = assignmentAfter(as, id, k); found {
			if hi[k] != 0 {
				return lo, hi, false
			}
			lo[k], hi[k] = int32(i), int32(j)
		}
		i = j
	}
	return lo, hi, true
}

// scope is the assignments a report (or one round of the trend) covers and
// the annotators behind them, one coder each.
type scope struct {
	// which are the positions in the data's assignments (all) of those
	// in scope.
	which   []int32
	all     []domain.ReportAssignment
	coders  []string
	coderOf map[string]int
	// parts holds, for each assignment, what the dimensions read, looked
	// up once per scope rather than once per dimension.
	parts  []part
	labels int // sentence labels in scope
	// sent is the scope's sentence order (see [index.sentenceOrder]),
	// worked out by the first dimension that needs it.
	sentOnce sync.Once
	sent     *sentenceOrder
}

// summaryLabelOf returns the summary label of the scope's assignment i.
func (x *index) summaryLabelOf(sc *scope, i int) (*domain.ReportSummaryLabel, bool) {
	if k := x.summaryLabel[sc.which[i]]; k >= 0 {
		return &x.data.SummaryLabels[k], true
	}
	return nil, false
}

// assignment returns the scope's assignment i.
func (sc *scope) assignment(i int) *domain.ReportAssignment { return &sc.all[sc.which[i]] }

// part is one assignment of a scope with its coder, summary position and
// labels: those from lo to hi in the data (see [index.partOf]).
type part struct {
	lo, hi         int32
	coder, summary int32
}

// partOf returns the views of a part's labels.
func (x *index) partOf(p part) []label {
	return x.views[p.lo:p.hi:p.hi]
}

// sentenceOf returns the sentence of the label at place i, whose view is v.
func (x *index) sentenceOf(i int32, v *label) int64 {
	if v.pos >= 0 {
		return x.data.Sentences[v.pos].ID
	}
	return x.strays[i]
}

// same reports whether two scopes cover the same assignments in the same
// order, and so give the same ratings.
func (sc *scope) same(o *scope) bool {
	return slices.Equal(sc.which, o.which)
}

// scope selects the assignments of one round, or with round 0 each
// annotator's latest assignment of each summary across rounds; without
// drafts, only submitted assignments.
// denseScopes is whether scope finds each annotator's latest assignment
// of a summary in a table when it can; tests turn it off to compare.
var denseScopes = true

func (x *index) scope(round int64, drafts bool) *scope {
	sc := &scope{coderOf: map[string]int{}}
	counts := func(a *domain.ReportAssignment) bool { return drafts || a.Status == domain.StatusSubmitted }
	as := x.data.Assignments
	// Each counted assignment's annotator by a dense number of their own
	// (users), found in a map of user ids once per change of annotator
	// rather than by name for each assignment.
	userNum := map[int64]int32{}
	var users []string
	last, lastNum := int64(0), int32(-1)
	numOf := func(a *domain.ReportAssignment) int32 {
		if lastNum < 0 || a.UserID != last {
			n, ok := userNum[a.UserID]
			if !ok {
				n = int32(len(users))
				userNum[a.UserID] = n
				users = append(users, a.Username)
			}
			last, lastNum = a.UserID, n
		}
		return lastNum
	}
	// Sized for every assignment: grown by append, the two left 14 MB of
	// outgrown arrays a build of the 1.5M-label project (its scopes).
	sc.which = make([]int32, 0, len(as))
	nums := make([]int32, 0, len(as)) // the annotator number of each assignment in which
	if round != 0 {
		for j := range as {
			if as[j].RoundID == round && counts(&as[j]) {
				sc.which = append(sc.which, int32(j))
				nums = append(nums, numOf(&as[j]))
			}
		}
	} else {
		// Each annotator's latest assignment of each summary: found in a
		// table by summary position and annotator number when that table
		// is not much larger than the assignments, else in a map (a map
		// of 300,000 took 49 ms of the 1.5M-label project's report).
		num := make([]int32, len(as))
		for j := range as {
			if counts(&as[j]) {
				num[j] = numOf(&as[j])
			}
		}
		nu := int64(len(users))
		var table []int32 // 1 + the place in which, by summary position × nu + annotator
		var latest map[[2]int64]int
		if span := int64(len(x.summaryIDs)) * nu; denseScopes && span <= 4*int64(len(as))+1<<16 {
			table = make([]int32, span)
		} else {
			latest = map[[2]int64]int{}
		}
		for j := range as {
			a := &as[j]
			if !counts(a) {
				continue
			}
			var i int
			var ok bool
			var slot *int32
			if table != nil {
				u, _ := x.summaryPos.of(a.SummaryID) // every assignment's summary has a position
				slot = &table[int64(u)*nu+int64(num[j])]
				i, ok = int(*slot)-1, *slot > 0
			} else {
				i, ok = latest[[2]int64{a.UserID, a.SummaryID}]
			}
			if !ok {
				if slot != nil {
					*slot = int32(len(sc.which)) + 1
				} else {
					latest[[2]int64{a.UserID, a.SummaryID}] = len(sc.which)
				}
				sc.which = append(sc.which, int32(j))
				nums = append(nums, num[j])
			} else if a.RoundID > as[sc.which[i]].RoundID {
				sc.which[i], nums[i] = int32(j), num[j]
			}
		}
	}
	sc.all = as
	// The coders are the annotators with assignments in scope, by name.
	in := make([]bool, len(users))
	for _, n := range nums {
		in[n] = true
	}
	for n, name := range users {
		if _, dup := sc.coderOf[name]; in[n] && !dup {
			sc.coderOf[name] = 0
			sc.coders = append(sc.coders, name)
		}
	}
	slices.Sort(sc.coders)
	for i, c := range sc.coders {
		sc.coderOf[c] = i
	}
	coder := make([]int32, len(users))
	for n, name := range users {
		coder[n] = int32(sc.coderOf[name])
	}
	sc.parts = make([]part, len(sc.which))
	for i, j := range sc.which {
		a := &as[j]
		u, _ := x.summaryPos.of(a.SummaryID) // every assignment's summary has a position
		sc.parts[i] = part{lo: x.labelLo[j], hi: x.labelHi[j], coder: coder[nums[i]], summary: u}
		sc.labels += int(x.labelHi[j] - x.labelLo[j])
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
// With opt.TakeLabels, d.Labels is nil when Build returns.
func Build(project string, d *domain.ReportData, set domain.Settings, opt Options) (*Report, error) {
	x := newIndexOn(d, set, workers(opt))
	if opt.TakeLabels {
		d.Labels = nil // the views hold what the report reads of them
	}
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
		return nil, domain.Errorf(domain.ENotFound, "round %q not found", opt.Round)
	}
	sc := x.scope(roundID, opt.IncludeDrafts)
	rep.Annotators = append(rep.Annotators, sc.coders...)
	srcs, err := keep(x.sources(), opt.Dimension)
	if err != nil {
		return nil, err
	}
	boot := bootstrap{replicates: opt.Bootstrap, seed: opt.Seed, method: opt.BootstrapMethod, workers: workers(opt)}
	rep.PerAnnotator = newAnnotators(x, sc)
	// A round whose assignments are those of the report has the
	// report's ratings: its trend point is read off the dimension rather
	// than computed again.
	// Dimensions are computed side by side, one per processor, each
	// from its own ratings; their results are put together in report
	// order.
	type result struct {
		dim   Dimension
		point TrendPoint
		ads   []AnnotatorDimension
		pats  [][]DisagreementPattern
	}
	results := make([]result, len(srcs))
	// The assistant's agreement and the disagreements list read the index
	// and the scope only: computed beside the dimensions, they fill the
	// processors the last dimensions leave idle.
	var beside sync.WaitGroup
	var disagreementsErr error
	besides := func() {
		rep.Assistant = x.assistant(sc)
		rep.Disagreements, rep.DisagreementsTotal, disagreementsErr = x.disagreements(sc)
	}
	if workers(opt) > 1 {
		beside.Go(besides)
	}
	inParallel(workers(opt), len(srcs), func(i int) {
		rt := x.ratings(srcs[i], sc)
		dm, rare := dimension(rt, sc.coders, boot)
		st := dm.Statistics
		st.KrippendorffAlpha = pointAlpha(dm.Statistics.KrippendorffAlpha, rt)
		ads, pats := againstRest(rt)
		point := TrendPoint{Dimension: dm.Name, Level: dm.Level, Units: dm.Units, Ratings: dm.Ratings, Statistics: st,
			IntervalCaution: agreement.RareValueCaution(&st, rare)}
		results[i] = result{dim: dm, point: point, ads: ads, pats: pats}
		rt.release()
	})
	points := make([]TrendPoint, len(srcs))
	for i, r := range results {
		rep.Dimensions = append(rep.Dimensions, r.dim)
		points[i] = r.point
		for c := range rep.PerAnnotator {
			rep.PerAnnotator[c].Dimensions = append(rep.PerAnnotator[c].Dimensions, r.ads[c])
			rep.PerAnnotator[c].Disagree = append(rep.PerAnnotator[c].Disagree, r.pats[c]...)
		}
	}
	results = nil
	finishAnnotators(rep.PerAnnotator)
	if workers(opt) <= 1 {
		besides() // on the calling goroutine (see Options.OneCore)
	}
	for _, r := range d.Rounds {
		if opt.Round != "" && r.ID != roundID {
			continue
		}
		tr := TrendRound{Round: r.Name, Kind: r.Kind, Dimensions: []TrendPoint{}}
		rsc := x.scope(r.ID, opt.IncludeDrafts)
		if rsc.same(sc) {
			tr.Dimensions = append(tr.Dimensions, points...)
			rep.Trend = append(rep.Trend, tr)
			continue
		}
		tps := make([]TrendPoint, len(srcs))
		inParallel(workers(opt), len(srcs), func(i int) {
			rt := x.ratings(srcs[i], rsc)
			// Without a bootstrap, units nobody rated change nothing:
			// the round's statistics skip the project's other units.
			rt.c = ratedUnits(rt.c)
			st, _ := statistics(rt, bootstrap{})
			units, _, n := counts(rt)
			tps[i] = TrendPoint{Dimension: rt.spec.name, Level: rt.spec.level, Units: units, Ratings: n, Statistics: st,
				IntervalCaution: agreement.RareValueCaution(&st, iaa.RareCountOf(rt.c))}
			rt.release()
		})
		tr.Dimensions = append(tr.Dimensions, tps...)
		rep.Trend = append(rep.Trend, tr)
	}
	beside.Wait()
	if disagreementsErr != nil {
		return nil, disagreementsErr
	}
	return rep, nil
}

// pointAlpha is α of rt without its interval, as a trend point shows it:
// the value of the dimension's bootstrapped α, which is the same figure,
// or α computed again where that has none (the bootstrap failed or α is
// undefined, which then says why).
func pointAlpha(boot agreement.Statistic, rt ratings) agreement.Statistic {
	if boot.Value != nil {
		return agreement.Statistic{Value: ptr(*boot.Value)}
	}
	st := alphaStatistic(rt.c, rt.spec.iaaLevel(), bootstrap{})
	finite(&st)
	return st
}

// ratedUnits returns the units of c with at least one rating, in order.
func ratedUnits(c *iaa.Coded) *iaa.Coded {
	out := &iaa.Coded{Coders: c.Coders, Values: c.Values, Coder: c.Coder, Code: c.Code, Start: []int{0}}
	for u := range c.Units() {
		if c.Start[u+1] > c.Start[u] {
			out.Start = append(out.Start, c.Start[u+1])
		}
	}
	return out
}

// workers is how many dimensions opt lets the build compute at once.
func workers(opt Options) int {
	if opt.OneCore {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// parallelGoroutines counts the goroutines inParallel has started.
var parallelGoroutines atomic.Int64

// inParallel calls f(0), …, f(n−1), at most workers at once; with one
// worker, in order on the calling goroutine (see Options.OneCore).
func inParallel(workers, n int, f func(i int)) {
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	parallelGoroutines.Add(int64(min(n, workers)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, workers) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
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
		return nil, domain.Errorf(domain.EInvalid, "unknown dimension %q (this project has %s; add @sentence or @summary for one level)", want, strings.Join(names, ", "))
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

// dimension computes a dimension's figures, and returns with them how its
// pairable ratings spread over the values, for the trend point of the
// same labels.
func dimension(rt ratings, coders []string, boot bootstrap) (Dimension, iaa.RareCount) {
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
	rare := iaa.RareCountOf(rt.c)
	d.IntervalCaution = agreement.RareValueCaution(&st, rare)
	for _, p := range pairs {
		out := agreement.Pair{Coders: [2]string{coders[p.A], coders[p.B]}, N: p.N}
		if p.Err != nil {
			out.Undefined = undefined(p.Err).Undefined
		} else if isFinite(p.Kappa.Value) && isFinite(p.Kappa.SE) {
			out.CohenKappa, out.SE = ptr(p.Kappa.Value), ptr(p.Kappa.SE)
			out.CI95 = &[2]float64{p.Kappa.Low, p.Kappa.High}
			out.CI95Caution = agreement.PairCaution(p.Kappa)
		} else {
			out.Undefined = "not a finite number"
		}
		d.Pairwise = append(d.Pairwise, out)
	}
	return d, rare
}

// DimensionNames lists the dimensions a project's report can show, each
// name once with its title, in report order, without reading any label
// (for a menu of dimensions).
func DimensionNames(set domain.Settings) [][2]string {
	x := newIndex(&domain.ReportData{}, set)
	var out [][2]string
	for _, src := range x.sources() {
		if !slices.ContainsFunc(out, func(n [2]string) bool { return n[0] == src.spec.name }) {
			out = append(out, [2]string{src.spec.name, src.spec.title})
		}
	}
	return out
}
