package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"annotate/internal/assiststore"
)

func runAssistEval(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "assist eval", "assist eval --project SLUG [--run ID]")
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project (required)")
	runID := fs.Int64("run", 0, "judge only this run (default: every run)")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	store, err := openExisting(ctx, e, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	p, err := openProject(ctx, store, *slug)
	if err != nil {
		return err
	}
	runs, err := projectRuns(ctx, store, p, *runID)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		fmt.Fprintf(e.stdout, "project %s has no assistant runs\n", p.Slug)
		return nil
	}
	evals := make([]assiststore.AssistEval, len(runs))
	for i := range runs {
		if evals[i], err = assiststore.New(store).EvalAssistRun(ctx, runs[i].ID); err != nil {
			return err
		}
	}
	printEvalTable(e.stdout, runs, evals)
	return nil
}

// printEvalTable writes one row per run: n, balanced accuracy, FPR, FNR and
// Krippendorff's α against gold (unfaithful is the positive class), then
// the reason for every number that is undefined.
func printEvalTable(w io.Writer, runs []assiststore.AssistRun, evals []assiststore.AssistEval) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tprotocol\tmodel\tstatus\tn\tBAcc\tFPR\tFNR\talpha\t")
	var notes []string
	for i, r := range runs {
		e := evals[i]
		bacc, fpr, fnr, alpha := "undefined", "undefined", "undefined", "undefined"
		if e.RatesUndefined == "" {
			bacc, fpr, fnr = num(e.BalancedAccuracy), num(e.FPR), num(e.FNR)
		} else {
			notes = append(notes, fmt.Sprintf("run %d: balanced accuracy, FPR and FNR undefined: %s", r.ID, e.RatesUndefined))
		}
		if e.AlphaUndefined == "" {
			alpha = num(e.Alpha)
		} else {
			notes = append(notes, fmt.Sprintf("run %d: alpha undefined: %s", r.ID, e.AlphaUndefined))
		}
		status := r.Status
		if r.Sample {
			status += " (sample)"
			notes = append(notes, fmt.Sprintf("run %d: sample output made from the gold labels; its scores say nothing about a model", r.ID))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", runTitle(&r), r.Protocol, r.Model, status, e.N, bacc, fpr, fnr, alpha)
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}

func num(x float64) string { return fmt.Sprintf("%.3f", x) }
