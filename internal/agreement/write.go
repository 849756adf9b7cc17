package agreement

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"annotate/internal/csvsafe"
	"annotate/internal/iaa"
	"annotate/internal/jsonindent"
)

// Write prints the report in the given format: "text" (aligned tables for a
// terminal), "json" (indented, the shape documented on [Report]) or "csv"
// (header statistic,value,ci_low,ci_high,undefined and one row per
// statistic; empty cells where a number does not apply).
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		return r.writeText(w)
	case "json":
		return jsonindent.Encode(w, r)
	case "csv":
		return r.writeCSV(w)
	}
	return fmt.Errorf("unknown report format %q (want text, json or csv)", format)
}

func (r *Report) writeCSV(w io.Writer) error {
	cw := csvsafe.NewWriter(w)
	_ = cw.Write([]string{"statistic", "value", "ci_low", "ci_high", "undefined", "ci_caution"})
	for _, ns := range r.Statistics.named() {
		s := ns.stat
		rec := []string{ns.name, num(s.Value), "", "", s.Undefined, ""}
		if s.CI95 != nil {
			rec[2], rec[3] = num(&s.CI95[0]), num(&s.CI95[1])
			if s == &r.Statistics.KrippendorffAlpha || s == &r.Statistics.FleissKappa || s == &r.Statistics.ScottPi {
				rec[5] = r.IntervalCaution // see RareValueCaution
			}
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// num formats a number in full precision for machine reading, "" for none.
func num(x *float64) string {
	if x == nil {
		return ""
	}
	return strconv.FormatFloat(*x, 'f', -1, 64)
}

func (r *Report) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "units\t%d\n", r.Units)
	fmt.Fprintf(tw, "coders\t%d\n", r.Coders)
	fmt.Fprintf(tw, "ratings\t%d\n", r.Ratings)
	fmt.Fprintf(tw, "level\t%s\n", r.Level)
	fmt.Fprintf(tw, "weights\t%s\n", r.Weights)
	if r.Span > 0 {
		fmt.Fprintf(tw, "span\t%s\n", strconv.FormatFloat(r.Span, 'f', -1, 64))
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "statistic\tvalue\t95% CI\tSE\tnote")
	for _, ns := range r.Statistics.named() {
		s := ns.stat
		if s.Value == nil {
			fmt.Fprintf(tw, "%s\t-\t\t\tundefined: %s\n", ns.name, s.Undefined)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", ns.name, dec(s.Value), interval(s.CI95), dec(s.SE), note(s))
	}
	if c := r.IntervalCaution; c != "" {
		fmt.Fprintf(tw, "caution: %s\n", c)
	}
	if len(r.Pairwise) > 0 {
		fmt.Fprintln(tw)
		fmt.Fprintf(tw, "coder\tcoder\tn\tCohen's kappa\t95%% CI\tnote\n")
		for _, p := range r.Pairwise {
			k := dec(p.CohenKappa)
			if p.CohenKappa == nil {
				k = "undefined: " + p.Undefined
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", p.Coders[0], p.Coders[1], p.N, k, interval(p.CI95), p.CI95Caution)
		}
	}
	return tw.Flush()
}

// dec formats a number for reading, "" for none.
func dec(x *float64) string {
	if x == nil {
		return ""
	}
	return strconv.FormatFloat(*x, 'f', 4, 64)
}

func interval(ci *[2]float64) string {
	if ci == nil {
		return ""
	}
	return dec(&ci[0]) + " – " + dec(&ci[1])
}

func note(s *Statistic) string {
	var parts []string
	if s.Bootstrap != nil {
		over := "units"
		if s.BootstrapMethod == "pairs" {
			over = "pairable values, known to be too narrow"
		}
		parts = append(parts, BootstrapNote(s, over))
	}
	if s.PerUnit != nil {
		parts = append(parts, fmt.Sprintf("%d units with %d ratings", *s.NUnits, *s.PerUnit))
	} else if s.NUnits != nil {
		parts = append(parts, fmt.Sprintf("%d units", *s.NUnits))
	}
	if s.NPairs != nil {
		parts = append(parts, fmt.Sprintf("%d pairs", *s.NPairs))
	}
	return strings.Join(parts, "; ")
}

// BootstrapNote says how many bootstrap replicates are behind α's interval
// (over is what they drew), how many were left out with α undefined, and
// P(α < min), or why the interval is withheld.
func BootstrapNote(s *Statistic, over string) string {
	out := fmt.Sprintf("bootstrap %d over %s", *s.Bootstrap, over)
	switch s.BootstrapInterval {
	case iaa.IntervalBCa:
		out += ", BCa interval"
	case iaa.IntervalPercentile:
		out += ", percentile interval"
	}
	if s.BootstrapUndefined != nil && *s.BootstrapUndefined > 0 {
		out += fmt.Sprintf(" (%d more left out: alpha undefined on them)", *s.BootstrapUndefined)
	}
	if s.CI95Withheld != "" {
		return out + "; interval withheld: " + s.CI95Withheld
	}
	if s.PBelowMin != nil {
		out += fmt.Sprintf("; P(alpha < %s) = %s", strconv.FormatFloat(*s.MinAlpha, 'f', -1, 64), strconv.FormatFloat(*s.PBelowMin, 'f', 4, 64))
	}
	return out
}
