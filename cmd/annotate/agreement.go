package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"annotate/internal/agreement"
	"annotate/internal/app"
	"annotate/internal/iaa"
	"annotate/internal/report"
)

func runAgreement(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "agreement", `agreement --ratings FILE [--level nominal|ordinal|interval|ratio|masi] [--weights none|linear|quadratic]
                 [--bootstrap N --bootstrap-method units|pairs --seed S] [--min-alpha Q] [--format text|json|csv]
       annotate agreement --project SLUG [--round NAME] [--dimension NAME] [--drafts]
                 [--bootstrap N --bootstrap-method units|pairs --seed S]
                 [--format text|json|csv] [--table NAME] [--db PATH]

FILE is CSV with the header unit,coder,value: one rating per row; an empty
value or a missing row means no rating. Values are compared as text at the
nominal level, as sets of labels joined by "+" ("none" for the empty set)
at the masi level, and as numbers at the other levels. Comment lines
"# level: L" and "# weights: W" before the header, as --table ratings
writes them, set --level and --weights unless the flags are given.

With --project, the report covers the project's labels: every dimension at
sentence and summary level, each annotator against the others and gold, the
assistant's effect, the trend over rounds and the disagreement list (see
docs/reports.md). --round limits it to one round; without it each
annotator's latest assignment of a summary counts. --dimension keeps one
dimension (e.g. faithfulness, or faithfulness@summary). --format csv
writes one table, chosen by --table; --table ratings writes the labels of
one --dimension NAME@LEVEL as a unit,coder,value file that --ratings reads
back with the report's level and weights.
Only submitted work counts unless --drafts is given.

alpha's bootstrap interval resamples units with all their ratings by
default (Zapf et al. 2016, BMC Medical Research Methodology 16:93);
--bootstrap-method pairs draws pairable values instead (Hayes &
Krippendorff 2007, Communication Methods and Measures 1:77-89); it is known
to give intervals that are too narrow (in simulation its 95% interval held
the true alpha in 87% of studies, against 95% for units), so keep it for
comparing with figures published that way.`)
	ratings := fs.String("ratings", "", "ratings CSV file (unit,coder,value); - reads standard input")
	project := fs.String("project", "", "report on this project (its slug) instead of a ratings file")
	round := fs.String("round", "", "with --project: the round to report on (default: all rounds)")
	dimension := fs.String("dimension", "", "with --project: keep one dimension, NAME or NAME@sentence|summary")
	csvTable := fs.String("table", "dimensions", "with --project --format csv: "+strings.Join(report.Tables, ", ")+", or ratings (one --dimension NAME@LEVEL as a unit,coder,value file for --ratings)")
	db := dbFlag(e, fs)
	level := fs.String("level", "nominal", "measurement level: nominal, ordinal, interval, ratio or masi (sets)")
	weights := fs.String("weights", "none", "weights for Cohen's kappa: none, linear or quadratic")
	span := fs.Float64("span", 0, "the range (maximum less minimum) of the scale linear or quadratic weights are taken over, so unused values of the scale count as steps; 0 weighs the values observed by their positions")
	boot := fs.Int("bootstrap", 0, fmt.Sprintf("bootstrap replicates for alpha's 95%% interval (0 = none; %d with --project)", report.DefaultBootstrap))
	seed := fs.Uint64("seed", 1, "bootstrap seed")
	method := fs.String("bootstrap-method", "units", "what alpha's bootstrap resamples: units (with all their ratings; the default) or pairs (pairable values; known to give too narrow intervals)")
	drafts := fs.Bool("drafts", false, "with --project: count assignments not yet submitted too")
	minAlpha := fs.Float64("min-alpha", 0.667, "report the bootstrap probability that alpha is below this")
	format := fs.String("format", "text", "output: text, json or csv")
	realNames := fs.Bool("real-names", false, "with --project: name annotators by username even where the project's settings hide who labelled what (pseudonyms otherwise, as on its pages)")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *project != "" {
		if *ratings != "" {
			fmt.Fprintln(e.stderr, "annotate agreement: give --ratings FILE or --project SLUG, not both")
			return errUsage
		}
		if !flagSet(fs, "bootstrap") {
			*boot = report.DefaultBootstrap
		}
		m, err := iaa.ParseBootstrapMethod(*method)
		if err != nil {
			return fmt.Errorf("unknown bootstrap method %q (want units or pairs)", *method)
		}
		names := app.NamesBySettings
		if *realNames {
			names = app.RealNames
		}
		return projectAgreement(ctx, e, *db, *project, report.Options{Round: *round, Dimension: *dimension, IncludeDrafts: *drafts,
			Bootstrap: *boot, BootstrapMethod: m, Seed: *seed}, *format, *csvTable, names)
	}
	if *ratings == "" {
		fmt.Fprintln(e.stderr, "annotate agreement: --ratings FILE or --project SLUG is required")
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
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			defer holdRatingsHeap(st.Size())()
		}
	}
	table, err := agreement.ReadRatings(bufio.NewReaderSize(in, 1<<20), name)
	if err != nil {
		return err
	}
	// A file written by --table ratings says how its values are read.
	if v := table.Meta[agreement.MetaLevel]; v != "" && !flagSet(fs, "level") {
		*level = v
	}
	if v := table.Meta[agreement.MetaWeights]; v != "" && !flagSet(fs, "weights") {
		*weights = v
	}
	if v := table.Meta[agreement.MetaSpan]; v != "" && !flagSet(fs, "span") {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return fmt.Errorf("%s: the comment \"# %s: %s\" is not a positive number", name, agreement.MetaSpan, v)
		}
		*span = f
	}
	if !(*span >= 0) || math.IsInf(*span, 0) {
		return fmt.Errorf("--span must be a positive number (the scale's maximum less its minimum), or 0 for none")
	}
	rep, err := agreement.Compute(table, agreement.Options{Level: *level, Weights: *weights, Span: *span, Bootstrap: *boot, BootstrapMethod: *method, Seed: *seed, MinAlpha: *minAlpha})
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	if err := rep.Write(w, *format); err != nil {
		return err
	}
	return w.Flush()
}

// projectAgreement prints the agreement report of a project.
// Annotators are named as on the project's pages unless names says
// otherwise.
func projectAgreement(ctx context.Context, e env, db, slug string, opt report.Options, format, table string, names app.Names) error {
	if opt.Bootstrap < 0 {
		return fmt.Errorf("bootstrap replicates must not be negative (got %d)", opt.Bootstrap)
	}
	if format != "text" && format != "json" && format != "csv" {
		return fmt.Errorf("unknown report format %q (want text, json or csv)", format)
	}
	store, err := openExisting(ctx, e, db)
	if err != nil {
		return err
	}
	defer store.Close()
	p, err := openProject(ctx, store, slug)
	if err != nil {
		return err
	}
	hint, err := store.ReportSizeHint(ctx)
	if err != nil {
		return err
	}
	restore := readHeap(hint)
	data, err := store.ReportData(ctx, p.ID, opt.Filter())
	restore()
	if err != nil {
		return err
	}
	defer holdHeap()()
	w := bufio.NewWriter(e.stdout)
	ops := app.New(store)
	if format == "csv" && table == "ratings" {
		if err := ops.WriteRatings(ctx, w, p, data, opt, names); err != nil {
			return err
		}
		return w.Flush()
	}
	opt.TakeLabels = true // the data is read for this report alone
	rep, err := ops.BuildReport(ctx, p, data, opt, names)
	if err != nil {
		return err
	}
	if format == "csv" {
		err = rep.WriteCSV(w, table)
	} else {
		err = rep.Write(w, format)
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

// readHeap, unless the environment sets GOGC or GOMEMLIMIT, lets the heap
// grow to three times its live size between collections while the report
// data is read (GOGC=200), within a soft limit of twice hint, the store's
// estimate of the data from above (at least 128 MiB), and returns the
// function that restores both settings. Most of what the read allocates
// is rows that are dropped at once and slices outgrown, so it collects
// about half as often as by default; its live heap peaks at about 1.6
// times the data, when the labels are put in order, which the limit
// leaves room for. On the 1.5M-label project with two assistant runs
// (data 123 MB, hint 123 MB) the heap stays under 250 MB where it reached
// 320 MB without the limit.
func readHeap(hint int64) func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(200)
	oldLimit := debug.SetMemoryLimit(max(2*hint, 128<<20))
	return func() {
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(oldLimit)
	}
}

// holdHeap, unless the environment sets GOGC or GOMEMLIMIT, sets a soft
// limit on the heap of twice what it holds now (the loaded report data,
// at least 128 MiB) and returns the function that restores the limit.
// Building the report allocates about three times the data, mostly
// arrays without pointers that a collection marks at little cost, while
// its live heap stays under 1.75 times the data (the labels are dropped
// once indexed: see report.Options.TakeLabels); without a limit, the
// heap would grow to twice its live size between collections.
func holdHeap() func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	old := debug.SetMemoryLimit(max(2*int64(m.HeapAlloc), 128<<20))
	return func() { debug.SetMemoryLimit(old) }
}

// holdRatingsHeap, unless the environment sets GOGC or GOMEMLIMIT, sets a
// soft limit on the heap of twice the size of a ratings file plus 16 MiB
// (at least 64 MiB) while it is read and reported on, and returns the
// function that restores the limit. The table read from a file not grouped
// by unit holds about twice the file's size at its peak, in arrays without
// pointers that a collection marks at little cost; without a limit the
// heap would grow to twice that between collections: a file of 3M rows in
// random order took 160 MB instead of 125 MB.
func holdRatingsHeap(size int64) func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(max(2*size+16<<20, 64<<20))
	return func() { debug.SetMemoryLimit(old) }
}

// flagSet reports whether the command line set the named flag.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
