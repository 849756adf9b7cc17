package web

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/agreement"
	"annotate/internal/domain"
	"annotate/internal/report"
	"annotate/web/templates"
)

// statTitles names the statistics of report.Named for column heads.
var statTitles = map[string]string{
	"krippendorff_alpha": "Krippendorff's α",
	"fleiss_kappa":       "Fleiss' κ",
	"cohen_kappa_mean":   "Mean Cohen's κ",
	"percent_agreement":  "Percent agreement",
	"scott_pi":           "Scott's π",
	"gwet_ac1":           "Gwet's AC1",
}

// tableTitles describes the CSV tables of report.Tables.
var tableTitles = map[string]string{
	"dimensions":    "Statistics by dimension",
	"pairwise":      "Cohen's κ of every pair of annotators",
	"annotators":    "Each annotator against the rest",
	"gold":          "Each annotator against gold",
	"assistant":     "Labels by assistant condition",
	"trend":         "Statistics by round",
	"disagreements": "Disagreement list",
}

// reportView shapes a report for its page. dims lists every dimension of
// the project (name and title) for the filter menu; adjudicate says whether
// the reader may adjudicate (disagreements then link to adjudication).
func (s *Server) reportView(c echo.Context, p *domain.Project, rep *report.Report, dims [][2]string, opt report.Options, adjudicate bool) templates.ReportView {
	v := templates.ReportView{
		Page: s.page(c, "Agreement report", s.projectCrumbs(p)...),
		Slug: p.Slug, Round: opt.Round, Dimension: opt.Dimension,
		Annotators: len(rep.Annotators), Bootstrap: rep.Bootstrap, Anonymous: p.Settings.AnonymousAdjudication,
		BootstrapMethod:    opt.BootstrapMethod.String(),
		UndefinedLimit:     strconv.FormatFloat(agreement.MaxUndefinedShare*100, 'f', -1, 64),
		DisagreementsTotal: rep.DisagreementsTotal,
	}
	if opt.IncludeDrafts {
		v.Drafts = "1"
	}
	v.RoundOptions = []templates.Option{{Value: "", Label: "All rounds (latest assignment of each summary)"}}
	for _, r := range rep.Rounds {
		v.RoundOptions = append(v.RoundOptions, templates.Option{Value: r.Name, Label: fmt.Sprintf("%s (%s, %s)", r.Name, r.Kind, r.Status)})
	}
	v.DimensionOptions = []templates.Option{{Value: "", Label: "Every dimension"}}
	known := false
	for _, d := range dims {
		v.DimensionOptions = append(v.DimensionOptions, templates.Option{Value: d[0], Label: d[1]})
		known = known || d[0] == opt.Dimension
	}
	if opt.Dimension != "" && !known {
		v.DimensionOptions = append(v.DimensionOptions, templates.Option{Value: opt.Dimension, Label: opt.Dimension})
	}
	v.Scope = "All rounds, each annotator's latest assignment of a summary"
	if opt.Round != "" {
		v.Scope = "Round " + opt.Round
	}
	for _, ns := range report.Named(&agreement.Statistics{}) {
		v.StatNames = append(v.StatNames, statTitles[ns.Name])
	}
	titles := map[string]string{}
	for _, level := range []string{report.LevelSentence, report.LevelSummary} {
		l := templates.ReportLevel{Level: level}
		for i := range rep.Dimensions {
			d := &rep.Dimensions[i]
			titles[d.Name] = d.Title
			if d.Level == level {
				l.Rows = append(l.Rows, dimensionRow(d))
			}
		}
		if len(l.Rows) > 0 {
			v.Levels = append(v.Levels, l)
		}
	}
	focus := focusName(rep, opt)
	v.Focus = titles[focus]
	for i := range rep.Dimensions {
		d := &rep.Dimensions[i]
		switch {
		case d.Name != focus || len(rep.Annotators) == 0:
		case len(rep.Annotators) <= maxHeatmapAnnotators:
			v.Heatmaps = append(v.Heatmaps, heatmap(rep.Annotators, d))
		default:
			v.PairLists = append(v.PairLists, pairList(len(rep.Annotators), d, "/p/"+p.Slug+"/report.csv"+reportQuery(opt, "table", "pairwise")))
		}
	}
	v.AnnotatorRows, v.Patterns = annotatorRows(rep, focus, titles)
	v.Trends = trends(rep, focus, titles[focus])
	for _, d := range rep.Disagreements {
		v.Disagreements = append(v.Disagreements, disagreementRow(p.Slug, d, adjudicate))
	}
	v.Assistant = assistantView(&rep.Assistant)
	v.Downloads = append(v.Downloads, templates.Link{Label: "Whole report (JSON)", Href: "/p/" + p.Slug + "/report.json" + reportQuery(opt)})
	for _, t := range report.Tables {
		v.Downloads = append(v.Downloads, templates.Link{Label: tableTitles[t] + " (CSV)", Href: "/p/" + p.Slug + "/report.csv" + reportQuery(opt, "table", t)})
	}
	return v
}

// focusName is the dimension the per-annotator and trend sections show:
// the one chosen, else faithfulness, else the first.
func focusName(rep *report.Report, opt report.Options) string {
	if opt.Dimension != "" && len(rep.Dimensions) > 0 {
		return rep.Dimensions[0].Name
	}
	for _, d := range rep.Dimensions {
		if d.Name == "faithfulness" {
			return d.Name
		}
	}
	if len(rep.Dimensions) > 0 {
		return rep.Dimensions[0].Name
	}
	return ""
}

// maxValueUses bounds the value counts printed under a dimension; sets of
// error types can have many.
const maxValueUses = 6

func dimensionRow(d *report.Dimension) templates.DimensionRow {
	row := templates.DimensionRow{Key: d.Key(), Title: d.Title, Scale: d.Scale, Units: d.Units, Pairable: d.Pairable, Ratings: d.Ratings,
		Caution: d.IntervalCaution}
	var uses []string
	for i, u := range d.Values {
		if i == maxValueUses {
			uses = append(uses, fmt.Sprintf("and %d more", len(d.Values)-i))
			break
		}
		uses = append(uses, u.Value+" "+strconv.Itoa(u.Ratings))
	}
	row.Values = strings.Join(uses, ", ")
	for _, ns := range report.Named(&d.Statistics) {
		row.Stats = append(row.Stats, statCell(ns.Name, ns.Stat))
	}
	return row
}

// statCell prints a statistic with three decimals, its interval and its
// basis, or its reason for being undefined.
func statCell(name string, st *agreement.Statistic) templates.StatCell {
	c := templates.StatCell{Name: name}
	if st.Value == nil {
		c.Undefined = st.Undefined
		if c.Undefined == "" {
			c.Undefined = "no value"
		}
		return c
	}
	c.Value = dec3(*st.Value)
	if st.CI95 != nil {
		c.CI = "[" + dec3(st.CI95[0]) + ", " + dec3(st.CI95[1]) + "]"
	}
	if st.BootstrapUndefined != nil && *st.BootstrapUndefined > 0 {
		drawn := *st.Bootstrap + *st.BootstrapUndefined
		if st.CI95Withheld != "" {
			c.Note = fmt.Sprintf("no interval: α undefined on %d of %d bootstrap replicates", *st.BootstrapUndefined, drawn)
		} else {
			c.Note = fmt.Sprintf("interval from %d of %d replicates (α undefined on the rest)", *st.Bootstrap, drawn)
		}
	}
	if st.CI95Caution != "" {
		c.Note = templates.NarrowNote
	}
	switch {
	case st.PerUnit != nil:
		c.Basis = plural(*st.NUnits, "unit") + " × " + strconv.Itoa(*st.PerUnit) + " ratings"
		if st.LeftOut != nil && *st.LeftOut > 0 {
			c.Note = fmt.Sprintf("%d pairable units with another number of ratings left out", *st.LeftOut)
		}
	case st.NUnits != nil:
		c.Basis = plural(*st.NUnits, "unit")
	case st.NPairs != nil:
		c.Basis = plural(*st.NPairs, "pair") + " of annotators"
	}
	return c
}

// rateCell prints a proportion with its counts and Wilson interval.
func rateCell(name string, r report.Rate) templates.StatCell {
	st := agreement.Statistic{Value: r.Value, CI95: r.CI95, Undefined: r.Undefined}
	c := statCell(name, &st)
	if r.Value != nil {
		c.Basis = strconv.Itoa(r.K) + " of " + strconv.Itoa(r.N)
	}
	return c
}

func dec3(x float64) string {
	if x != x || x > 1e300 || x < -1e300 {
		return "—" // never reached: the report holds finite numbers only
	}
	s := strconv.FormatFloat(x, 'f', 3, 64)
	if s == "-0.000" {
		s = "0.000"
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// kappaMeasure names the pairwise κ of d as the report computes it.
func kappaMeasure(d *report.Dimension) string {
	if d.Scale == "ordinal" {
		return "Cohen's κ (quadratic weights)"
	}
	return "Cohen's κ"
}

// heatmap lays out Cohen's κ of every pair of annotators on a dimension.
func heatmap(names []string, d *report.Dimension) templates.Heatmap {
	measure := kappaMeasure(d)
	var pairs []templates.HeatPair
	for _, p := range d.Pairwise {
		pairs = append(pairs, templates.HeatPair{A: p.Coders[0], B: p.Coders[1], Value: p.CohenKappa, CI: p.CI95, N: p.N, Undefined: p.Undefined,
			Narrow: p.CI95Caution != ""})
	}
	title := fmt.Sprintf("%s between annotators: %s, %s level", measure, d.Title, d.Level)
	return templates.NewHeatmap("heatmap-"+svgID(d.Key()), title, measure, names, pairs)
}

// svgID turns a dimension key into an id usable in SVG references.
func svgID(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s)
}

// maxHeatmapAnnotators is the most annotators drawn as a heatmap. Past it
// the matrix is wider than a screen and its SVG grows with the square of
// the group (7 MB of page at 100 annotators), so the page lists the pairs
// that agree least instead and the pairwise CSV holds every pair.
const maxHeatmapAnnotators = 16

// Pair lists show at most lowPairsShown pairs, each sharing at least
// lowPairMinUnits units: below that a pair's κ says little.
const (
	lowPairsShown   = 20
	lowPairMinUnits = 10
)

// pairList picks the pairs of annotators with the lowest defined κ on d
// among those sharing enough units; ties go to the pair with more units.
func pairList(annotators int, d *report.Dimension, csv string) templates.PairList {
	measure := kappaMeasure(d)
	l := templates.PairList{
		Title:    fmt.Sprintf("Pairs that agree least: %s, %s level", d.Title, d.Level),
		Measure:  measure,
		Possible: annotators * (annotators - 1) / 2,
		MinUnits: lowPairMinUnits,
		CSV:      csv,
	}
	var low []*agreement.Pair
	for i := range d.Pairwise {
		p := &d.Pairwise[i]
		if p.N > 0 {
			l.Sharing++
		}
		if p.N >= lowPairMinUnits && p.CohenKappa != nil {
			low = append(low, p)
		}
	}
	slices.SortStableFunc(low, func(a, b *agreement.Pair) int {
		if c := cmp.Compare(*a.CohenKappa, *b.CohenKappa); c != 0 {
			return c
		}
		return cmp.Compare(b.N, a.N)
	})
	for _, p := range low[:min(len(low), lowPairsShown)] {
		st := agreement.Statistic{Value: p.CohenKappa, CI95: p.CI95, NUnits: &p.N, CI95Caution: p.CI95Caution}
		l.Rows = append(l.Rows, templates.PairRow{A: p.Coders[0], B: p.Coders[1], Kappa: statCell("cohen_kappa", &st)})
	}
	return l
}
