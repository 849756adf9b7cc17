package web

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"annotate/internal/agreement"
	"annotate/internal/domain"
	"annotate/internal/report"
	"annotate/web/templates"
)

// annotatorRows shapes each annotator on the focus dimension (both levels)
// and lists where each departs most from the others on any dimension.
func annotatorRows(rep *report.Report, focus string, titles map[string]string) ([]templates.AnnotatorRow, []templates.AnnotatorPatterns) {
	alpha := map[string]*float64{}
	for _, d := range rep.Dimensions {
		alpha[d.Key()] = d.Statistics.KrippendorffAlpha.Value
	}
	var rows []templates.AnnotatorRow
	var pats []templates.AnnotatorPatterns
	for _, a := range rep.PerAnnotator {
		for _, d := range a.Dimensions {
			if d.Dimension != focus {
				continue
			}
			row := templates.AnnotatorRow{
				Key: a.Name + "-" + d.Dimension + "@" + d.Level, Name: a.Name, Dimension: titles[d.Dimension] + ", " + d.Level, Labels: a.Labels, Pace: paceWords(a.SecondsPerSentence),
				Agreement:     statCell("agreement_with_rest", &d.Agreement),
				KappaMajority: statCell("kappa_vs_majority", &d.KappaMajority),
				AlphaWithout:  statCell("alpha_without", &d.AlphaWithout),
			}
			w, g := d.AlphaWithout.Value, alpha[d.Dimension+"@"+d.Level]
			if g != nil {
				row.GroupAlpha = dec3(*g)
			}
			// Only a difference the three printed decimals show counts.
			row.Lowers = w != nil && g != nil && math.Round(*w*1000) > math.Round(*g*1000)
			if g := d.Gold; g != nil {
				row.HasGold, row.GoldN = true, g.N
				row.GoldSources = goldSources(g)
				row.GoldAccuracy = rateCell("gold_accuracy", g.Accuracy)
				row.GoldKappa = statCell("gold_kappa", &g.Kappa)
				row.Balanced = templates.StatCell{Name: "balanced_accuracy", Undefined: "only for faithfulness and yes/no dimensions"}
				if g.BalancedAccuracy != nil {
					row.Balanced = statCell("balanced_accuracy", g.BalancedAccuracy)
				}
				row.Confusion = confusion(g.Confusion)
			}
			rows = append(rows, row)
		}
		p := templates.AnnotatorPatterns{Name: a.Name}
		for _, d := range a.Disagree {
			p.Items = append(p.Items, fmt.Sprintf("%s, %s level: %q where the others said %q, %d of %d units",
				titles[d.Dimension], d.Level, d.Theirs, d.Others, d.Count, d.Of))
		}
		pats = append(pats, p)
	}
	return rows, pats
}

// confusion copies a confusion matrix, keeping only rows and cells that
// have a value name.
func confusion(c report.Confusion) templates.ConfusionView {
	out := templates.ConfusionView{Values: c.Values}
	for i, r := range c.Counts {
		if i < len(c.Values) {
			out.Counts = append(out.Counts, r[:min(len(r), len(c.Values))])
		}
	}
	return out
}

// trends follows the focus dimension over the calibration rounds, one
// chart per level.
func trends(rep *report.Report, focus, title string) []templates.TrendView {
	var rounds []report.TrendRound
	for _, t := range rep.Trend {
		if t.Kind == domain.RoundCalibration {
			rounds = append(rounds, t)
		}
	}
	if len(rounds) == 0 {
		return nil
	}
	var names []string
	for _, t := range rounds {
		names = append(names, t.Round)
	}
	var out []templates.TrendView
	for _, level := range []string{report.LevelSentence, report.LevelSummary} {
		tv := templates.TrendView{Title: fmt.Sprintf("%s, %s level, across calibration rounds", title, level)}
		series := map[string]*templates.SeriesInput{}
		var order []string
		found := false
		for _, t := range rounds {
			var point *report.TrendPoint
			for i := range t.Dimensions {
				if p := &t.Dimensions[i]; p.Dimension == focus && p.Level == level {
					point = p
				}
			}
			row := templates.TrendRow{Round: t.Round}
			st := report.Named(new(agreement.Statistics))
			if point != nil {
				found = true
				row.Units, row.Ratings, row.Caution = point.Units, point.Ratings, point.IntervalCaution
				st = report.Named(&point.Statistics)
			}
			for _, ns := range st {
				if series[ns.Name] == nil {
					series[ns.Name] = &templates.SeriesInput{Label: statTitles[ns.Name]}
					order = append(order, ns.Name)
				}
				series[ns.Name].Values = append(series[ns.Name].Values, ns.Stat.Value)
				cell := statCell(ns.Name, ns.Stat)
				if point == nil {
					cell = templates.StatCell{Name: ns.Name, Undefined: "no labels in this round"}
				}
				row.Stats = append(row.Stats, cell)
			}
			tv.Rows = append(tv.Rows, row)
		}
		if !found {
			continue
		}
		var in []templates.SeriesInput
		for _, n := range order {
			in = append(in, *series[n])
		}
		tv.Chart = templates.NewLineChart("trend-"+svgID(focus+"@"+level), tv.Title, names, in)
		out = append(out, tv)
	}
	return out
}

// disagreementRow shapes one sentence of the disagreement list, linked to
// the adjudication page of its summary at the sentence for readers who
// may adjudicate, and otherwise to the (read-only) labelling page of one
// of its annotators.
func disagreementRow(slug string, d report.Disagreement, adjudicate bool) templates.DisagreementRow {
	href := assignmentURL(d.Assignment) + "#mark-" + strconv.FormatInt(d.SentenceID, 10)
	if adjudicate && d.SummaryID != 0 {
		href = adjSummaryURL(slug, d.SummaryID) + "#s-" + strconv.FormatInt(d.SentenceID, 10)
	}
	return templates.DisagreementRow{
		Href:          href,
		Where:         fmt.Sprintf("document %s, summary %s, sentence %d", d.Document, d.Summary, d.Index),
		Summary:       d.Summary,
		Index:         d.Index,
		Text:          d.Text,
		Split:         dec3(d.Split),
		ErrorDistance: dec3(d.ErrorDistance),
		Ambiguity:     dec3(d.AmbiguitySplit),
		Votes:         votesText(d.Votes),
		ErrorTypes:    votesText(d.ErrorTypes),
		Gold:          d.Gold,
		Assistant:     d.Assistant,
		Flagged:       len(d.Flags),
		Flags:         report.FlagsText(d.Flags),
	}
}

// votesText writes votes as "faithful: ann1, ann2; unfaithful: ann3".
func votesText(vs []report.Vote) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.Value+": "+strings.Join(v.Annotators, ", "))
	}
	return strings.Join(parts, "; ")
}

func assistantView(a *report.Assistant) templates.AssistantView {
	v := templates.AssistantView{
		Note: a.Note, Labels: a.Labels, WithAssistant: a.WithAssistant, WithGold: a.WithGold,
		Revealed: a.Reveal.Revealed, Changed: rateCell("changed", a.Reveal.Changed),
		ToAssistant: a.Reveal.ToAssistant, TowardGold: a.Reveal.TowardGold, AwayFromGold: a.Reveal.AwayFromGold,
		FirstAgree: rateCell("first_agrees", a.Reveal.FirstAgree), FinalAgree: rateCell("final_agrees", a.Reveal.FinalAgree),
	}
	if g := a.Assistant; g != nil {
		v.HasVsGold, v.VsGoldN = true, g.N
		v.VsAccuracy = rateCell("accuracy", g.Accuracy)
		v.VsKappa = statCell("cohen_kappa", &g.Kappa)
		v.VsBalanced = templates.StatCell{Name: "balanced_accuracy", Undefined: "not computed"}
		if g.BalancedAccuracy != nil {
			v.VsBalanced = statCell("balanced_accuracy", g.BalancedAccuracy)
		}
	}
	for _, s := range a.Splits {
		v.Splits = append(v.Splits, templates.AssistSplitRow{
			Condition: s.Condition, Labels: s.Labels,
			GoldAccuracy:  rateCell("gold_accuracy", s.GoldAccuracy),
			AgreesWith:    rateCell("assistant_agreement", s.AssistantAgreement),
			FollowedWrong: rateCell("followed_when_wrong", s.FollowedWrong),
		})
	}
	return v
}

// goldSources says in words what an annotator was scored against: gold
// their labels did not make, and the others' strict majority where the
// annotators' own labels made the gold or there is none yet.
func goldSources(g *report.GoldAgreement) string {
	parts := []string{strconv.Itoa(g.Independent) + " imported or adjudicated gold"}
	if g.LeaveOneOut > 0 {
		parts = append(parts, strconv.Itoa(g.LeaveOneOut)+" the others' majority")
	}
	if g.Unscored > 0 {
		parts = append(parts, strconv.Itoa(g.Unscored)+" left out (their own gold, no majority of the others)")
	}
	return strings.Join(parts, "; ")
}

// paceWords words an annotator's active seconds a sentence.
func paceWords(secs *float64) string {
	if secs == nil {
		return ""
	}
	return fmt.Sprintf("%.1f s a sentence", *secs)
}
