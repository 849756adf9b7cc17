package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"annotate/internal/agreement"
	"annotate/internal/csvsafe"
	"annotate/internal/jsonindent"
)

// Tables are the names of the CSV tables [Report.WriteCSV] writes.
var Tables = []string{"dimensions", "pairwise", "annotators", "gold", "assistant", "trend", "disagreements"}

// Write prints the report as "text" (aligned tables for a terminal),
// "json" (indented, the shape of [Report]) or "csv" (the dimensions table;
// see [Report.WriteCSV] for the others).
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		return r.writeText(w)
	case "json":
		return jsonindent.Encode(w, r)
	case "csv":
		return r.WriteCSV(w, "dimensions")
	}
	return fmt.Errorf("unknown report format %q (want text, json or csv)", format)
}

// statColumns are the statistics of a dimension in report order.
var statColumns = []string{"krippendorff_alpha", "fleiss_kappa", "cohen_kappa_mean", "percent_agreement", "scott_pi", "gwet_ac1"}

// Named lists a dimension's statistics with their JSON names, in report
// order.
func Named(s *agreement.Statistics) []NamedStatistic {
	return []NamedStatistic{
		{"krippendorff_alpha", &s.KrippendorffAlpha},
		{"fleiss_kappa", &s.FleissKappa},
		{"cohen_kappa_mean", &s.CohenKappaMean},
		{"percent_agreement", &s.PercentAgreement},
		{"scott_pi", &s.ScottPi},
		{"gwet_ac1", &s.GwetAC1},
	}
}

// NamedStatistic is a statistic with its JSON name.
type NamedStatistic struct {
	Name string
	Stat *agreement.Statistic
}

// WriteCSV writes one table of the report (one of [Tables]) as CSV with a
// header row. Numbers are in full precision; a cell that does not apply is
// empty, and an undefined statistic leaves its value empty and gives the
// reason in its _undefined column.
func (r *Report) WriteCSV(w io.Writer, table string) error {
	cw := csvsafe.NewWriter(w)
	switch table {
	case "dimensions":
		head := []string{"dimension", "level", "scale", "units", "pairable_units", "ratings"}
		for _, n := range statColumns {
			head = append(head, n, n+"_ci_low", n+"_ci_high", n+"_undefined")
		}
		// The bootstrap's replicates behind α's interval: those used, those
		// left out with α undefined, and why the interval is withheld.
		head = append(head, "krippendorff_alpha_replicates", "krippendorff_alpha_replicates_undefined", "krippendorff_alpha_ci_withheld")
		// The units behind Fleiss' κ: those with the most common number of
		// ratings, that number, and the pairable units left out.
		head = append(head, "fleiss_kappa_n_units", "fleiss_kappa_ratings_per_unit", "fleiss_kappa_n_units_left_out")
		// Why the κ-type and α intervals are too narrow, when a value is
		// rare (see agreement.RareValueRatings).
		head = append(head, "interval_caution")
		writeRow(cw, head)
		for _, d := range r.Dimensions {
			rec := []string{d.Name, d.Level, d.Scale, itoa(d.Units), itoa(d.Pairable), itoa(d.Ratings)}
			for _, ns := range Named(&d.Statistics) {
				rec = append(rec, statCells(ns.Stat)...)
			}
			a := &d.Statistics.KrippendorffAlpha
			rec = append(rec, intCell(a.Bootstrap), intCell(a.BootstrapUndefined), a.CI95Withheld)
			f := &d.Statistics.FleissKappa
			rec = append(rec, intCell(f.NUnits), intCell(f.PerUnit), intCell(f.LeftOut))
			rec = append(rec, d.IntervalCaution)
			writeRow(cw, rec)
		}
	case "pairwise":
		writeRow(cw, []string{"dimension", "level", "annotator_a", "annotator_b", "n", "cohen_kappa", "ci_low", "ci_high", "undefined", "ci_caution"})
		for _, d := range r.Dimensions {
			for _, p := range d.Pairwise {
				rec := []string{d.Name, d.Level, p.Coders[0], p.Coders[1], itoa(p.N), num(p.CohenKappa), "", "", p.Undefined, p.CI95Caution}
				if p.CI95 != nil {
					rec[6], rec[7] = num(&p.CI95[0]), num(&p.CI95[1])
				}
				writeRow(cw, rec)
			}
		}
	case "annotators":
		head := []string{"annotator", "dimension", "level"}
		for _, n := range []string{"agreement_with_rest", "kappa_vs_majority", "alpha_without"} {
			head = append(head, n, n+"_ci_low", n+"_ci_high", n+"_undefined")
		}
		head = append(head, "seconds_per_sentence", "kappa_vs_majority_ci_caution", "agreement_with_rest_ci_caution")
		writeRow(cw, head)
		for _, a := range r.PerAnnotator {
			for _, d := range a.Dimensions {
				rec := []string{a.Name, d.Dimension, d.Level}
				for _, st := range []*agreement.Statistic{&d.Agreement, &d.KappaMajority, &d.AlphaWithout} {
					rec = append(rec, statCells(st)...)
				}
				rec = append(rec, num(a.SecondsPerSentence), d.KappaMajority.CI95Caution, d.Agreement.CI95Caution)
				writeRow(cw, rec)
			}
		}
	case "gold":
		writeRow(cw, []string{"annotator", "dimension", "level", "n", "accuracy", "accuracy_ci_low", "accuracy_ci_high",
			"cohen_kappa", "cohen_kappa_ci_low", "cohen_kappa_ci_high", "cohen_kappa_undefined", "balanced_accuracy", "cohen_kappa_ci_caution"})
		for _, a := range r.PerAnnotator {
			for _, d := range a.Dimensions {
				if g := d.Gold; g != nil {
					rec := []string{a.Name, d.Dimension, d.Level, itoa(g.N)}
					rec = append(rec, rateCells(g.Accuracy)...)
					rec = append(rec, statCells(&g.Kappa)...)
					if g.BalancedAccuracy != nil {
						rec = append(rec, num(g.BalancedAccuracy.Value))
					} else {
						rec = append(rec, "")
					}
					rec = append(rec, g.Kappa.CI95Caution)
					writeRow(cw, rec)
				}
			}
		}
	case "assistant":
		writeRow(cw, []string{"condition", "labels", "measure", "k", "n", "value", "ci_low", "ci_high", "undefined"})
		for _, s := range r.Assistant.Splits {
			for _, m := range []struct {
				name string
				r    Rate
			}{{"gold_accuracy", s.GoldAccuracy}, {"assistant_agreement", s.AssistantAgreement}, {"followed_when_wrong", s.FollowedWrong}} {
				rec := []string{s.Condition, itoa(s.Labels), m.name, itoa(m.r.K), itoa(m.r.N)}
				rec = append(rec, rateCells(m.r)...)
				rec = append(rec, m.r.Undefined)
				writeRow(cw, rec)
			}
		}
	case "trend":
		head := []string{"round", "kind", "dimension", "level", "units", "ratings"}
		for _, n := range statColumns {
			head = append(head, n, n+"_undefined")
		}
		writeRow(cw, head)
		for _, t := range r.Trend {
			for _, p := range t.Dimensions {
				rec := []string{t.Round, t.Kind, p.Dimension, p.Level, itoa(p.Units), itoa(p.Ratings)}
				for _, ns := range Named(&p.Statistics) {
					rec = append(rec, num(ns.Stat.Value), ns.Stat.Undefined)
				}
				writeRow(cw, rec)
			}
		}
	case "disagreements":
		writeRow(cw, []string{"document", "summary", "sentence", "text", "split", "error_distance", "ambiguity_split", "votes", "error_types", "gold", "assistant", "flags"})
		for _, d := range r.Disagreements {
			writeRow(cw, []string{d.Document, d.Summary, itoa(d.Index), d.Text, ftoa(d.Split), ftoa(d.ErrorDistance), ftoa(d.AmbiguitySplit),
				votes(d.Votes), votes(d.ErrorTypes), d.Gold, d.Assistant, FlagsText(d.Flags)})
		}
	default:
		return fmt.Errorf("unknown table %q (want one of %s)", table, strings.Join(Tables, ", "))
	}
	cw.Flush()
	return cw.Error()
}

func statCells(s *agreement.Statistic) []string {
	rec := []string{num(s.Value), "", "", s.Undefined}
	if s.CI95 != nil {
		rec[1], rec[2] = num(&s.CI95[0]), num(&s.CI95[1])
	}
	return rec
}

func rateCells(r Rate) []string {
	rec := []string{num(r.Value), "", ""}
	if r.CI95 != nil {
		rec[1], rec[2] = num(&r.CI95[0]), num(&r.CI95[1])
	}
	return rec
}

// votes formats votes as "faithful: ann1 ann2; unfaithful: ann3".
func votes(vs []Vote) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.Value+": "+strings.Join(v.Annotators, " "))
	}
	return strings.Join(parts, "; ")
}

func itoa(n int) string { return strconv.Itoa(n) }

// intCell formats an optional count, "" for none.
func intCell(n *int) string {
	if n == nil {
		return ""
	}
	return itoa(*n)
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// num formats a number in full precision, "" for none.
func num(x *float64) string {
	if x == nil {
		return ""
	}
	return ftoa(*x)
}

// dec formats a number for reading, "-" for none.
func dec(x *float64) string {
	if x == nil {
		return "-"
	}
	return strconv.FormatFloat(*x, 'f', 3, 64)
}

// Format writes a statistic for people: "0.712 [0.55, 0.84]" or
// "undefined: reason".
func Format(s *agreement.Statistic) string {
	if s.Value == nil {
		return "undefined: " + s.Undefined
	}
	out := dec(s.Value)
	if s.CI95 != nil {
		out += " [" + dec(&s.CI95[0]) + ", " + dec(&s.CI95[1]) + "]"
	}
	return out
}

// ReplicatesNote says, for α with a bootstrap on which some replicates
// had α undefined, how many replicates its interval rests on, or that the
// interval is withheld: " (962 of 1000 replicates)", " (no interval: α
// undefined on 380 of 1000 replicates)"; "" when every replicate counted.
func ReplicatesNote(s *agreement.Statistic) string {
	if s.Bootstrap == nil || s.BootstrapUndefined == nil || *s.BootstrapUndefined == 0 {
		return ""
	}
	drawn := *s.Bootstrap + *s.BootstrapUndefined
	if s.CI95Withheld != "" {
		return fmt.Sprintf(" (no interval: alpha undefined on %d of %d replicates)", *s.BootstrapUndefined, drawn)
	}
	return fmt.Sprintf(" (%d of %d replicates)", *s.Bootstrap, drawn)
}

// FleissBasis says which units Fleiss' κ rests on when it left some out:
// " (8 units with 4 ratings; 3 left out)"; "" otherwise.
func FleissBasis(s *agreement.Statistic) string {
	if s.Value == nil || s.LeftOut == nil || *s.LeftOut == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d units with %d ratings; %d left out)", *s.NUnits, *s.PerUnit, *s.LeftOut)
}

// FormatRate writes a rate for people: "0.80 (8/10) [0.49, 0.94]".
func FormatRate(r Rate) string {
	if r.Value == nil {
		return "undefined: " + r.Undefined
	}
	out := fmt.Sprintf("%s (%d/%d)", dec(r.Value), r.K, r.N)
	if r.CI95 != nil {
		out += " [" + dec(&r.CI95[0]) + ", " + dec(&r.CI95[1]) + "]"
	}
	return out
}

func (r *Report) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	round := r.Round
	if round == "" {
		round = "all rounds (each annotator's latest assignment of a summary)"
	}
	fmt.Fprintf(tw, "project\t%s\n", r.Project)
	fmt.Fprintf(tw, "round\t%s\n", round)
	fmt.Fprintf(tw, "annotators\t%s\n", strings.Join(r.Annotators, ", "))
	switch r.BootstrapMethod {
	case "pairs":
		fmt.Fprintf(tw, "bootstrap\t%d replicates drawn for each alpha's 95%% interval, drawing pairable values (Hayes & Krippendorff 2007)\n", r.Bootstrap)
		fmt.Fprintf(tw, "warning\t%s\n", agreement.PairsWarning)
	case "units":
		fmt.Fprintf(tw, "bootstrap\t%d replicates drawn for each alpha's 95%% interval, drawing units with all their labels (Zapf et al. 2016), as BCa intervals\n", r.Bootstrap)
		fmt.Fprintf(tw, "\treplicates on which alpha is undefined are left out; below, the number used where it is fewer, and no interval where more than %g%% were left out\n", agreement.MaxUndefinedShare*100)
	default:
		fmt.Fprintln(tw, "bootstrap\tnone")
	}
	counted := "submitted work only"
	if !r.SubmittedOnly {
		counted = "submitted work and drafts"
	}
	fmt.Fprintf(tw, "labels\t%s\n\n", counted)
	fmt.Fprintln(tw, "dimension\tlevel\tunits\tratings\talpha [95% CI]\tFleiss kappa\tmean Cohen kappa\t% agreement\tGwet AC1")
	for _, d := range r.Dimensions {
		s := &d.Statistics
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", d.Name, d.Level, d.Units, d.Ratings,
			Format(&s.KrippendorffAlpha)+ReplicatesNote(&s.KrippendorffAlpha), short(&s.FleissKappa)+FleissBasis(&s.FleissKappa), short(&s.CohenKappaMean), short(&s.PercentAgreement), short(&s.GwetAC1))
	}
	for _, d := range r.Dimensions {
		if c := d.IntervalCaution; c != "" {
			fmt.Fprintf(tw, "caution, %s@%s: %s\n", d.Name, d.Level, c)
		}
	}
	for _, d := range r.Dimensions {
		if len(d.Pairwise) == 0 || (d.Name != "faithfulness" && len(r.Dimensions) > 2) {
			continue
		}
		fmt.Fprintf(tw, "\npairwise Cohen kappa, %s@%s\n", d.Name, d.Level)
		fmt.Fprintln(tw, "annotator\tannotator\tn\tkappa [95% CI]")
		for _, p := range d.Pairwise {
			st := agreement.Statistic{Value: p.CohenKappa, CI95: p.CI95, Undefined: p.Undefined}
			note := ""
			if p.CI95Caution != "" {
				note = " (interval too narrow: a rare value)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", p.Coders[0], p.Coders[1], p.N, Format(&st)+note)
		}
	}
	fmt.Fprintln(tw, "\nannotator\tdimension\tlevel\tagreement with rest\tkappa vs majority\talpha without\taccuracy vs gold")
	for _, a := range r.PerAnnotator {
		for _, d := range a.Dimensions {
			if d.Dimension != "faithfulness" && len(r.Dimensions) > 2 {
				continue
			}
			gold := "-"
			if d.Gold != nil {
				gold = FormatRate(d.Gold.Accuracy)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Name, d.Dimension, d.Level, Format(&d.Agreement), short(&d.KappaMajority), short(&d.AlphaWithout), gold)
		}
	}
	as := &r.Assistant
	fmt.Fprintf(tw, "\nassistant\t%d labels, %d with an assistant label, %d with gold\n", as.Labels, as.WithAssistant, as.WithGold)
	if as.Note != "" {
		fmt.Fprintf(tw, "\t%s\n", as.Note)
	}
	fmt.Fprintln(tw, "condition\tlabels\taccuracy vs gold\tagrees with assistant\tfollowed when wrong")
	for _, s := range as.Splits {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", s.Condition, s.Labels, FormatRate(s.GoldAccuracy), FormatRate(s.AssistantAgreement), FormatRate(s.FollowedWrong))
	}
	if len(r.Trend) > 0 {
		fmt.Fprintln(tw, "\nround\tkind\tdimension\tlevel\tunits\talpha\tAC1")
		for _, t := range r.Trend {
			for _, p := range t.Dimensions {
				if p.Dimension != "faithfulness" && len(r.Dimensions) > 2 {
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", t.Round, t.Kind, p.Dimension, p.Level, p.Units, short(&p.Statistics.KrippendorffAlpha), short(&p.Statistics.GwetAC1))
			}
		}
	}
	fmt.Fprintf(tw, "\ndisagreements\t%d sentences (worst 10 below)\n", r.DisagreementsTotal)
	for i, d := range r.Disagreements {
		if i == 10 {
			break
		}
		flagged := ""
		if len(d.Flags) > 0 {
			flagged = fmt.Sprintf(" (flagged by %d)", len(d.Flags))
		}
		fmt.Fprintf(tw, "%s/%s #%d%s\tsplit %.2f\t%s\t%s\n", d.Document, d.Summary, d.Index, flagged, d.Split, votes(d.Votes), clip(d.Text, 60))
	}
	return tw.Flush()
}

// FlagsText writes flags as "ann1: note; ann2: note" (a flag without a
// note as the name alone).
func FlagsText(fs []Flag) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Annotator
		if f.Note != "" {
			parts[i] += ": " + f.Note
		}
	}
	return strings.Join(parts, "; ")
}

// short writes a statistic's value alone, or "undefined".
func short(s *agreement.Statistic) string {
	if s.Value == nil {
		return "undefined"
	}
	return dec(s.Value)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
