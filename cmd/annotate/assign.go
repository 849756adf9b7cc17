package main

import (
	"context"
	"fmt"
	"strings"

	"annotate/internal/app"
	"annotate/internal/domain"
)

func runAssign(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "assign", "assign --project SLUG --round NAME (--calibration | --per-item K) --annotators a,b,c [--documents id1,id2] [--sample N [--seed S]] [--keep-documents]")
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "project slug (required)")
	round := fs.String("round", "", "name of the new round (required)")
	calibration := fs.Bool("calibration", false, "a calibration round: every annotator gets every chosen summary")
	perItem := fs.Int("per-item", 0, "a production round: annotators per summary")
	annotators := fs.String("annotators", "", "comma-separated usernames (required)")
	sample := fs.Int("sample", 0, "choose N summaries at random (reproducible with --seed; the Rounds page draws the same with the same seed)")
	seed := fs.Uint64("seed", 1, "with --sample: the random seed")
	documents := fs.String("documents", "", "comma-separated external document ids to take the summaries of (default: all)")
	keepDocs := fs.Bool("keep-documents", false, "production: give a document's summaries to the same annotators instead of balancing load to within one summary")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *slug == "" || *round == "" || *annotators == "" || (*calibration == (*perItem > 0)) {
		fmt.Fprintln(e.stderr, "annotate assign: --project, --round, --annotators and one of --calibration or --per-item K are required")
		return errUsage
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
	req := app.RoundRequest{Name: *round, Kind: domain.RoundProduction, PerItem: *perItem, AnnotatorNames: splitList(*annotators),
		Documents: splitList(*documents), Sample: *sample, Seed: *seed, KeepDocuments: *keepDocs}
	if *calibration {
		req.Kind = domain.RoundCalibration
	}
	// The same operation as the Rounds page and the API.
	r, err := app.New(store).StartRound(ctx, p, req)
	if err != nil {
		return err
	}
	prog, err := store.RoundProgress(ctx, r.ID)
	if err != nil {
		return err
	}
	summaries := 0
	for _, a := range prog {
		summaries += a.Total
	}
	if r.PerItem > 0 {
		summaries /= r.PerItem
	}
	fmt.Fprintf(e.stdout, "round %s (%s): %d summaries, %d annotators, %d per summary\n", r.Name, r.Kind, summaries, len(prog), r.PerItem)
	for _, a := range prog {
		fmt.Fprintf(e.stdout, "  %s: %d\n", a.Username, a.Total)
	}
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
