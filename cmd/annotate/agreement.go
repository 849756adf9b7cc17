package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"annotate/internal/agreement"
)

func runAgreement(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "agreement", `agreement --ratings FILE [--level nominal|ordinal|interval|ratio] [--weights none|linear|quadratic]
                 [--bootstrap N --seed S] [--min-alpha Q] [--format text|json|csv]

FILE is CSV with the header unit,coder,value: one rating per row; an empty
value or a missing row means no rating. Values are compared as text at the
nominal level and as numbers at the other levels.`)
	ratings := fs.String("ratings", "", "ratings CSV file (unit,coder,value); - reads standard input")
	level := fs.String("level", "nominal", "measurement level: nominal, ordinal, interval or ratio")
	weights := fs.String("weights", "none", "weights for Cohen's kappa: none, linear or quadratic")
	boot := fs.Int("bootstrap", 0, "bootstrap replicates for alpha's 95% interval (0 = none)")
	seed := fs.Uint64("seed", 1, "bootstrap seed")
	minAlpha := fs.Float64("min-alpha", 0.667, "report the bootstrap probability that alpha is below this")
	format := fs.String("format", "text", "output: text, json or csv")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *ratings == "" {
		fmt.Fprintln(e.stderr, "annotate agreement: --ratings FILE is required")
		return errUsage
	}
	in, name := e.stdin, "stdin"
	if *ratings != "-" {
		f, err := os.Open(*ratings)
		if err != nil {
			return err
		}
		defer f.Close()
		in, name = f, filepath.Base(*ratings)
	}
	table, err := agreement.ReadRatings(bufio.NewReaderSize(in, 1<<20), name)
	if err != nil {
		return err
	}
	rep, err := agreement.Compute(table, agreement.Options{Level: *level, Weights: *weights, Bootstrap: *boot, Seed: *seed, MinAlpha: *minAlpha})
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	if err := rep.Write(w, *format); err != nil {
		return err
	}
	return w.Flush()
}
