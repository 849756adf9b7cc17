package main

import (
	"context"
	"fmt"
	"strings"

	"annotate/internal/tasks"
)

func runAssign(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "assign", "assign --project SLUG --round NAME (--calibration | --per-item K) --annotators a,b,c [--sample N [--seed S] | --documents id1,id2]")
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "project slug (required)")
	round := fs.String("round", "", "name of the new round (required)")
	calibration := fs.Bool("calibration", false, "a calibration round: every annotator gets every chosen summary")
	perItem := fs.Int("per-item", 0, "a production round: annotators per summary")
	annotators := fs.String("annotators", "", "comma-separated usernames (required)")
	sample := fs.Int("sample", 0, "choose N summaries at random (reproducible with --seed)")
	seed := fs.Uint64("seed", 1, "with --sample: the random seed")
	documents := fs.String("documents", "", "comma-separated external document ids to take all summaries of")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *slug == "" || *round == "" || *annotators == "" || (*calibration == (*perItem > 0)) {
		fmt.Fprintln(e.stderr, "annotate assign: --project, --round, --annotators and one of --calibration or --per-item K are required")
		return errUsage
	}
	store, err := tasks.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	p, err := store.ProjectBySlug(ctx, *slug)
	if err != nil {
		return fmt.Errorf("project %q: %w", *slug, err)
	}
	spec := tasks.RoundSpec{Name: *round, Kind: tasks.RoundProduction, PerItem: *perItem}
	if *calibration {
		spec.Kind = tasks.RoundCalibration
	}
	for _, name := range splitList(*annotators) {
		u, err := store.UserByName(ctx, name)
		if err != nil {
			return fmt.Errorf("annotator %q: %w", name, err)
		}
		spec.Annotators = append(spec.Annotators, u.ID)
	}
	spec.Summaries, err = store.SummaryIDs(ctx, p.ID, splitList(*documents))
	if err != nil {
		return err
	}
	if *sample > 0 && *sample < len(spec.Summaries) {
		spec.Summaries = tasks.SampleSummaryIDs(spec.Summaries, *sample, *seed)
	}
	r, err := store.CreateRound(ctx, p.ID, spec)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s (%s): %d summaries, %d annotators, %d per summary\n", r.Name, r.Kind, len(spec.Summaries), len(spec.Annotators), r.PerItem)
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
