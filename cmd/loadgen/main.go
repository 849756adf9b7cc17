// Command loadgen seeds a large benchmark project and plays many
// annotators against a running annotate server on this machine.
//
//	loadgen seed --db bench.db [--documents 2000 --annotators 100 --per-item 2 --runs 3 --calibration 200 --leads 3]
//	loadgen seed --db big.db --annotators 100 --per-annotator 2000   # the 10x corpus
//	annotate serve --db bench.db --addr 127.0.0.1:8090 &
//	loadgen run --url http://127.0.0.1:8090 --annotators 100 --duration 60s --db bench.db
//
// run sends traffic only to loopback addresses, stops after --duration or
// --max-requests, prints requests per second and p50/p95/p99 latency per
// route, and with --db checks every acknowledged save against the
// database.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"annotate/internal/loadgen"
	"annotate/internal/tasks"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: loadgen seed|run [flags] (see -h)")
	}
	switch args[0] {
	case "seed":
		return seed(ctx, args[1:], out)
	case "run":
		return load(ctx, args[1:], out)
	}
	return fmt.Errorf("unknown subcommand %q (seed or run)", args[0])
}

func seed(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	db := fs.String("db", "bench.db", "database file to create the project in")
	var o loadgen.SeedOptions
	fs.StringVar(&o.Project, "project", "bench", "project slug")
	fs.IntVar(&o.Documents, "documents", 2000, "documents")
	fs.IntVar(&o.MinWords, "min-words", 800, "shortest document in words")
	fs.IntVar(&o.MaxWords, "max-words", 1500, "longest document in words")
	fs.IntVar(&o.Summaries, "summaries", 5, "summaries per document")
	fs.IntVar(&o.Annotators, "annotators", 100, "annotator accounts (bench001...)")
	fs.IntVar(&o.PerItem, "per-item", 2, "annotators per summary")
	fs.StringVar(&o.Password, "password", "bench-password", "password of every annotator and lead account")
	fs.IntVar(&o.Runs, "runs", 3, "assistant runs with an output for every sentence (0 for none)")
	fs.IntVar(&o.Calibration, "calibration", 200, "summaries of an earlier calibration round, labelled and submitted (0 for none)")
	fs.IntVar(&o.CalibrationAnnotators, "calibration-annotators", 3, "annotators of the calibration round")
	fs.BoolVar(&o.Unresolved, "unresolved", false, "leave the calibration round ready but unresolved (as before resolution at submission)")
	fs.IntVar(&o.Leads, "leads", 3, "lead accounts (lead01...; 0 for none)")
	perAnnotator := fs.Int("per-annotator", 0, "size the corpus to this many production assignments per annotator (overrides --documents; 2000 with 100 annotators is the 10x corpus)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// 0 on the command line means none; in SeedOptions it means the default.
	for _, v := range []*int{&o.Runs, &o.Calibration, &o.Leads} {
		if *v == 0 {
			*v = -1
		}
	}
	if *perAnnotator > 0 {
		o.Documents = (*perAnnotator*o.Annotators + o.PerItem*o.Summaries - 1) / (o.PerItem * o.Summaries)
	}
	store, err := tasks.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	t0 := time.Now()
	if err := loadgen.Seed(ctx, store, o); err != nil {
		return err
	}
	ov, err := store.ProjectOverview(ctx, mustProject(ctx, store, o.Project))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "seeded %s in %s: %d documents, %d summaries, %d sentences, %d key facts, %d assignments\n",
		*db, time.Since(t0).Round(time.Millisecond), ov.Documents, ov.Summaries, ov.Sentences, ov.KeyFacts, ov.Assignments)
	return nil
}

func mustProject(ctx context.Context, store *tasks.Store, slug string) int64 {
	p, err := store.ProjectBySlug(ctx, slug)
	if err != nil {
		return 0
	}
	return p.ID
}

func load(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var o loadgen.Options
	fs.StringVar(&o.BaseURL, "url", "http://127.0.0.1:8090", "server to load (loopback only)")
	fs.StringVar(&o.Project, "project", "bench", "project slug")
	fs.IntVar(&o.Annotators, "annotators", 100, "concurrent annotators")
	fs.StringVar(&o.Password, "password", "bench-password", "annotator password")
	fs.DurationVar(&o.Duration, "duration", 60*time.Second, "stop after this long")
	fs.IntVar(&o.MaxRequests, "max-requests", 200000, "stop after this many requests")
	fs.DurationVar(&o.Think, "think", 200*time.Millisecond, "mean pause between an annotator's actions")
	fs.DurationVar(&o.Ramp, "ramp", 10*time.Second, "spread the annotators' logins over this time")
	fs.IntVar(&o.Leads, "leads", 0, "leads opening the adjudication queue and pages, the report and exports meanwhile (accounts lead01...)")
	fs.DurationVar(&o.LeadThink, "lead-think", 2*time.Second, "mean pause between a lead's page views")
	db := fs.String("db", "", "database file of the server, to verify acknowledged saves after the run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var since int64
	if *db != "" {
		var err error
		if since, err = loadgen.Baseline(ctx, *db); err != nil {
			return err
		}
	}
	res, err := loadgen.Run(ctx, o)
	if err != nil {
		return err
	}
	if err := res.Write(out); err != nil {
		return err
	}
	if *db == "" {
		return nil
	}
	v, err := loadgen.Verify(ctx, *db, res.Acks, 0, since)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "verify: %d acknowledged saves on %d sentences; integrity_check %s; %d problems\n", v.Acks, v.Pairs, v.Integrity, len(v.Problems))
	for _, p := range v.Problems {
		fmt.Fprintln(out, "problem:", p)
	}
	if !v.OK() {
		return errors.New("verification failed")
	}
	return nil
}
