package agreement

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"annotate/internal/iaa"
)

// Options chooses how Compute reads the values and what it adds.
type Options struct {
	// Level is nominal (values compared as text), ordinal, interval or ratio
	// (values parsed as numbers). Empty means nominal.
	Level string
	// Weights is none, linear or quadratic, for Cohen's κ; linear and
	// quadratic weights run over the ordered distinct values and need a
	// level other than nominal. Empty means none.
	Weights string
	// Span is the range (maximum less minimum) of the scale the values
	// are on, which linear and quadratic weights are taken over, so that
	// a value of the scale nobody used still counts as a step; 0 takes
	// the weights from the positions of the values observed.
	Span float64
	// Bootstrap is the number of bootstrap replicates for α's confidence
	// interval; 0 skips the bootstrap.
	Bootstrap int
	// BootstrapMethod is what the bootstrap resamples: "units" (the
	// default; units with all their ratings, Zapf et al. 2016) or "pairs"
	// (pairable values, Hayes & Krippendorff 2007).
	BootstrapMethod string
	// Seed makes the bootstrap reproducible.
	Seed uint64
	// MinAlpha is the smallest acceptable α for the bootstrap's
	// P(α < MinAlpha); 0 means 0.667, Krippendorff's lowest conceivable limit.
	MinAlpha float64
}

// maxCells bounds units × coders: continuous data (more than a thousand
// distinct values) take the statistics' matrix-based paths, 8 bytes a cell.
const maxCells = 1 << 26

// Compute interprets t's values at opts.Level and computes the report. A
// value that is not a number at a numeric level (or negative at the ratio
// level) is an error naming the line where it first appears, e.g.
// `ratings.csv:17: value: "abc" is not a number (level interval)`.
// Statistics that are undefined on the data are reported as such, not as
// errors.
func Compute(t *Table, opts Options) (*Report, error) {
	if opts.Level == "" {
		opts.Level = "nominal"
	}
	level, err := iaa.ParseLevel(opts.Level)
	if err != nil {
		return nil, fmt.Errorf("unknown level %q (want nominal, ordinal, interval, ratio or masi)", opts.Level)
	}
	weights, err := iaa.ParseWeighting(opts.Weights)
	if err != nil {
		return nil, fmt.Errorf("unknown weights %q (want none, linear or quadratic)", opts.Weights)
	}
	if weights != iaa.Unweighted && (level == iaa.Nominal || level == iaa.MASI) {
		return nil, fmt.Errorf("weights %s need an ordered level (ordinal, interval or ratio), not %s", weights, level)
	}
	if opts.Bootstrap < 0 {
		return nil, fmt.Errorf("bootstrap replicates must not be negative (got %d)", opts.Bootstrap)
	}
	if opts.MinAlpha == 0 {
		opts.MinAlpha = 0.667
	}
	method, err := iaa.ParseBootstrapMethod(opts.BootstrapMethod)
	if err != nil {
		return nil, fmt.Errorf("unknown bootstrap method %q (want units or pairs)", opts.BootstrapMethod)
	}
	vals, err := t.valueNumbers(level)
	if err != nil {
		return nil, err
	}
	if cells := len(t.Units) * len(t.Coders); cells > maxCells {
		return nil, fmt.Errorf("%s: %d units × %d coders make more than %d cells to tabulate", t.Name, len(t.Units), len(t.Coders), maxCells)
	}
	r := t.ratings(vals)

	rep := &Report{
		Units: len(t.Units), Coders: len(t.Coders), Ratings: t.rated,
		Level: level.String(), Weights: weights.String(), Span: opts.Span,
		Pairwise: []Pair{},
	}
	// The statistics only read r, so they are computed at once, on two
	// cores where there are two; α with a bootstrap takes longest.
	var (
		wg       sync.WaitGroup
		alpha    Statistic
		alphaErr error
		cs       iaa.CountStatistics
	)
	wg.Go(func() { alpha, alphaErr = alphaStatistic(r, level, method, opts) })
	wg.Go(func() { cs = r.counts() })
	pairs := r.pairwise(weights, opts.Span)
	wg.Wait()
	if alphaErr != nil {
		return nil, alphaErr
	}
	s := &rep.Statistics
	s.KrippendorffAlpha = alpha
	s.FleissKappa = fleissStatistic(cs.Fleiss, cs.FleissErr)
	s.PercentAgreement = coefficient(cs.Percent, cs.PercentErr)
	s.ScottPi = coefficient(cs.ScottPi, cs.ScottPiErr)
	s.GwetAC1 = coefficient(cs.GwetAC1, cs.GwetAC1Err)

	if mean, used, err := iaa.LightKappa(pairs); err != nil {
		s.CohenKappaMean = undefinedStatistic(err)
	} else {
		s.CohenKappaMean = Statistic{Value: ptr(mean), NPairs: ptr(used)}
	}
	for _, p := range pairs {
		out := Pair{Coders: [2]string{t.Coders[p.A], t.Coders[p.B]}, N: p.N}
		if p.Err != nil {
			out.Undefined = reason(p.Err)
		} else {
			out.CohenKappa, out.SE = ptr(p.Kappa.Value), ptr(p.Kappa.SE)
			out.CI95 = &[2]float64{p.Kappa.Low, p.Kappa.High}
			out.CI95Caution = PairCaution(p.Kappa)
		}
		rep.Pairwise = append(rep.Pairwise, out)
	}
	rep.IntervalCaution = RareValueCaution(s, r.rareCount())
	for _, ns := range s.named() {
		ns.stat.mustBeFinite()
	}
	for i := range rep.Pairwise {
		rep.Pairwise[i].mustBeFinite()
	}
	return rep, nil
}

// valueNumbers gives each distinct value its number: at the nominal level
// its rank in text order (so categories are listed alphabetically), at the
// other levels the value parsed as a decimal number.
func (t *Table) valueNumbers(level iaa.Level) ([]float64, error) {
	nums := make([]float64, len(t.values))
	if level == iaa.Nominal {
		order := make([]int, len(t.values))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			switch {
			case t.values[a] < t.values[b]:
				return -1
			case t.values[a] > t.values[b]:
				return 1
			}
			return 0
		})
		for rank, i := range order {
			nums[i] = float64(rank)
		}
		return nums, nil
	}
	if level == iaa.MASI {
		return t.setNumbers()
	}
	for i, s := range t.values {
		x, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
			return nil, fmt.Errorf("%s:%d: value: %q is not a number (level %s)", t.Name, t.valueLine[i], s, level)
		case level == iaa.Ratio && x < 0:
			return nil, fmt.Errorf("%s:%d: value: %q is negative; the ratio level needs values ≥ 0", t.Name, t.valueLine[i], s)
		}
		nums[i] = x
	}
	return nums, nil
}

func alphaStatistic(r codedRatings, level iaa.Level, method iaa.BootstrapMethod, opts Options) (Statistic, error) {
	if opts.Bootstrap == 0 {
		a, err := r.alpha(level)
		if err != nil {
			return undefinedOr(err)
		}
		return Statistic{Value: ptr(a)}, nil
	}
	// The bootstrap resamples units or their pairs: it needs every unit's
	// ratings spelled out.
	b, err := iaa.AlphaBootstrapCoded(r.coded(), level, iaa.BootstrapOptions{
		Replicates: opts.Bootstrap, Seed: opts.Seed, Min: []float64{opts.MinAlpha}, Method: method,
	})
	if err != nil {
		return undefinedOr(err)
	}
	return AlphaBootStatistic(b, opts.MinAlpha), nil
}

func fleissStatistic(f iaa.Fleiss, err error) Statistic {
	if err != nil {
		return undefinedStatistic(err)
	}
	return Statistic{
		Value: ptr(f.Kappa), SE: ptr(f.SE), CI95: &[2]float64{f.Low, f.High},
		NUnits: ptr(f.Units), PerUnit: ptr(f.Raters),
	}
}

func coefficient(c iaa.Coefficient, err error) Statistic {
	if err != nil {
		return undefinedStatistic(err)
	}
	return Statistic{Value: ptr(c.Value), SE: ptr(c.SE), CI95: &[2]float64{c.Low, c.High}, NUnits: ptr(c.Units)}
}

// undefinedOr turns an undefined statistic into a report entry and passes
// any other error on.
func undefinedOr(err error) (Statistic, error) {
	if errors.Is(err, iaa.ErrUndefined) {
		return undefinedStatistic(err), nil
	}
	return Statistic{}, err
}

func undefinedStatistic(err error) Statistic { return Statistic{Undefined: reason(err)} }

func reason(err error) string {
	var u *iaa.UndefinedError
	if errors.As(err, &u) {
		return u.Reason
	}
	return err.Error()
}

// mustBeFinite turns a statistic with a NaN or infinite number into an
// undefined one, so that the JSON stays valid whatever happens upstream.
func (s *Statistic) mustBeFinite() {
	if s.Value == nil {
		return
	}
	for _, x := range []*float64{s.Value, s.SE, s.PBelowMin} {
		if x != nil && !finite(*x) {
			*s = Statistic{Undefined: "not a finite number"}
			return
		}
	}
	if s.CI95 != nil && !(finite(s.CI95[0]) && finite(s.CI95[1])) {
		s.CI95 = nil
	}
}

func (p *Pair) mustBeFinite() {
	if p.CohenKappa != nil && (!finite(*p.CohenKappa) || !finite(*p.SE)) {
		p.CohenKappa, p.SE, p.CI95, p.Undefined = nil, nil, nil, "not a finite number"
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// codedRatings holds a table's rated rows as the statistics take them:
// by profile (p) when units share profiles, and otherwise unit by unit
// (c), where per-profile terms would only add memory. The statistics are
// the same either way, to the last bit.
type codedRatings struct {
	p *iaa.Profiled
	c *iaa.Coded
}

func (r codedRatings) rareCount() iaa.RareCount {
	if r.p != nil {
		return iaa.RareCountOfProfiled(r.p)
	}
	return iaa.RareCountOf(r.c)
}

func (r codedRatings) alpha(level iaa.Level) (float64, error) {
	if r.p != nil {
		return iaa.AlphaProfiled(r.p, level)
	}
	return iaa.AlphaCoded(r.c, level)
}

func (r codedRatings) counts() iaa.CountStatistics {
	if r.p != nil {
		return iaa.CountStatisticsProfiled(r.p)
	}
	return iaa.CountStatisticsCoded(r.c)
}

func (r codedRatings) pairwise(w iaa.Weighting, span float64) []iaa.Pair {
	if r.p != nil {
		return iaa.PairwiseCohenProfiled(r.p, w, span, false)
	}
	return iaa.PairwiseCohenCoded(r.c, w, span, false)
}

// coded returns every unit's ratings spelled out.
func (r codedRatings) coded() *iaa.Coded {
	if r.p != nil {
		return r.p.Coded()
	}
	return r.c
}

// ratings gives the rated rows of t as coded ratings, the distinct
// numbers of vals (by value index) ascending as the codes, each unit's
// ratings in coder order: what a units × coders matrix holds, without its
// empty cells. Rows are known to be unique per (unit, coder). Units share
// profiles when there are at most half as many profiles as units.
func (t *Table) ratings(vals []float64) codedRatings {
	order := make([]int32, len(vals))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(vals[a], vals[b]) })
	code := make([]int32, len(vals)) // value index → code
	var distinct []float64
	for _, i := range order {
		if len(distinct) == 0 || distinct[len(distinct)-1] != vals[i] {
			distinct = append(distinct, vals[i])
		}
		code[i] = int32(len(distinct) - 1)
	}
	ps := &t.profiles
	shared := 2*ps.len() <= len(t.profile)
	n, profiles := t.rated, len(t.profile) // ratings and profiles to spell out
	if shared {
		n, profiles = 0, ps.len()
		for _, rows := range ps.chunks {
			for _, r := range rows {
				if r.value >= 0 {
					n++
				}
			}
		}
	}
	c := &iaa.Coded{Coders: len(t.Coders), Values: distinct, Start: make([]int, 1, profiles+1),
		Coder: make([]int32, 0, n), Code: make([]int32, 0, n)}
	add := func(k int32) {
		lo := len(c.Code)
		for _, r := range ps.at(k) {
			if r.value >= 0 {
				c.Coder = append(c.Coder, r.coder)
				c.Code = append(c.Code, code[r.value])
			}
		}
		// In coder order: a unit holds few ratings.
		for i := lo + 1; i < len(c.Code); i++ {
			for j := i; j > lo && c.Coder[j] < c.Coder[j-1]; j-- {
				c.Coder[j], c.Coder[j-1] = c.Coder[j-1], c.Coder[j]
				c.Code[j], c.Code[j-1] = c.Code[j-1], c.Code[j]
			}
		}
		c.Start = append(c.Start, len(c.Code))
	}
	if !shared {
		for _, k := range t.profile {
			add(k)
		}
		return codedRatings{c: c}
	}
	for k := range ps.len() {
		add(int32(k))
	}
	return codedRatings{p: &iaa.Profiled{Profiles: c, Of: t.profile}}
}

// pairsWarning is PairsWarning for the pairs bootstrap, "" otherwise.
func pairsWarning(m iaa.BootstrapMethod) string {
	if m == iaa.BootstrapPairs {
		return PairsWarning
	}
	return ""
}

// setNumbers reads the values as sets for the MASI level: labels joined by
// "+" ("none" or "{}" for the empty set), at most 53 distinct labels in a
// file. Labels are numbered in sorted order, so the result does not depend
// on the order of the rows.
func (t *Table) setNumbers() ([]float64, error) {
	sets := make([][]string, len(t.values))
	ids := map[string]int{}
	for i, v := range t.values {
		if v == "none" || v == "{}" {
			continue
		}
		for _, l := range strings.Split(v, "+") {
			l = strings.TrimSpace(l)
			if l == "" {
				return nil, fmt.Errorf("%s:%d: value: %q has an empty label (level masi: labels joined by +, or none)", t.Name, t.valueLine[i], v)
			}
			sets[i] = append(sets[i], l)
			ids[l] = 0
		}
	}
	if len(ids) > 53 {
		return nil, fmt.Errorf("%s: %d distinct labels in sets; the masi level takes at most 53", t.Name, len(ids))
	}
	labels := make([]string, 0, len(ids))
	for l := range ids {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	for i, l := range labels {
		ids[l] = i
	}
	nums := make([]float64, len(t.values))
	for i, set := range sets {
		var ls []int
		for _, l := range set {
			ls = append(ls, ids[l])
		}
		nums[i] = iaa.SetValue(ls...)
	}
	return nums, nil
}
