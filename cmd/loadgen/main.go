// Command loadgen seeds a large benchmark project and plays many
// annotators against a running annotate server on this machine.
//
//	loadgen seed --db bench.db [--documents 2000 --annotators 100 --per-item 2 --runs 3 --calibration 200 --leads 3]
//	loadgen seed --db big.db --annotators 100 --per-annotator 2000   # the 10x corpus
//	annotate serve --db bench.db --addr 127.0.0.1:8090 &
//	loadgen run --url http://127.0.0.1:8090 --annotators 100 --duration 60s --db bench.db
//
//	loadgen study --url http://127.0.0.1:8090 --db bench.db --project P --study S --plan plan.json
//
//	annotate export --db bench.db --project bench --what gold --out bench.jsonl
//	loadgen potato-items --in bench.jsonl --out items.jsonl
//	loadgen potato --url http://127.0.0.1:8077 --annotators 100 --think 300ms --duration 60s
//
// potato-items writes the seeded corpus as Potato items (document and
// summary, one item per summary) and potato plays the same annotators, at
// the same pace, against a Potato server labelling them, for a comparison
// on one machine (see the README's performance section).
//
// study plays a plan (see docs/studies.md) through a crowd study's entry
// link as simulated participants, reading the answers they are to give
// from the database file (read-only).
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

	"annotate/internal/experiment"
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
		return errors.New("usage: loadgen seed|run|study|potato-items|potato [flags] (see -h)")
	}
	switch args[0] {
	case "seed":
		return seed(ctx, args[1:], out)
	case "run":
		return load(ctx, args[1:], out)
	case "study":
		return study(ctx, args[1:], out)
	case "potato-items":
		return potatoItems(args[1:], out)
	case "potato":
		return potato(ctx, args[1:], out)
	}
	return fmt.Errorf("unknown subcommand %q (seed, run, study, potato-items or potato)", args[0])
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
	timeline := fs.String("timeline", "", "write every request (start, latency, route) to this CSV file")
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
	if *timeline != "" {
		if err := writeTimeline(*timeline, res); err != nil {
			return err
		}
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

func study(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("study", flag.ContinueOnError)
	var o loadgen.StudyOptions
	fs.StringVar(&o.BaseURL, "url", "http://127.0.0.1:8090", "server to load (loopback only)")
	fs.StringVar(&o.DB, "db", "", "the server's database file, read for the study's link and answers (required)")
	fs.StringVar(&o.Project, "project", "", "project slug (required)")
	fs.StringVar(&o.Study, "study", "", "study name (required)")
	plan := fs.String("plan", "", "the plan file, JSON (required)")
	fs.IntVar(&o.Concurrency, "concurrency", 20, "participants working at once")
	fs.DurationVar(&o.Think, "think", 0, "mean pause before each label (0: none)")
	fs.DurationVar(&o.Within, "within", 0, "start the participants evenly over this time (0: as fast as concurrency allows)")
	fs.DurationVar(&o.Duration, "duration", 5*time.Minute, "stop after this long")
	fs.IntVar(&o.MaxRequests, "max-requests", 500000, "stop after this many requests")
	fs.BoolVar(&o.EntryOnly, "entry-only", false, "each participant only enters and reads their first page")
	fs.BoolVar(&o.Spread, "spread", false, "give each participant a loopback address of their own (127.0.x.y), as the server limits entries per address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.DB == "" || o.Project == "" || o.Study == "" || *plan == "" {
		return errors.New("study needs --db, --project, --study and --plan")
	}
	f, err := os.Open(*plan)
	if err != nil {
		return err
	}
	defer f.Close()
	if o.Plan, err = experiment.ReadPlan(io.LimitReader(f, 1<<20)); err != nil {
		return fmt.Errorf("%s: %w", *plan, err)
	}
	res, err := loadgen.RunStudy(ctx, o)
	if err != nil {
		return err
	}
	return res.WriteStudy(out)
}

// writeTimeline writes the run's requests to the CSV file at path.
func writeTimeline(path string, res *loadgen.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := res.WriteTimeline(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func potatoItems(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("potato-items", flag.ContinueOnError)
	in := fs.String("in", "", "a native export of the project (annotate export --what gold), JSON Lines (required)")
	to := fs.String("out", "", "the Potato data file to write, JSON Lines (required; must not exist)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || *to == "" {
		return errors.New("potato-items needs --in and --out")
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := os.OpenFile(*to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := loadgen.PotatoItems(f, w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(*to)
		return fmt.Errorf("%s: %w", *in, err)
	}
	fmt.Fprintf(out, "wrote %d items to %s\n", n, *to)
	return nil
}

func potato(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("potato", flag.ContinueOnError)
	var o loadgen.Options
	fs.StringVar(&o.BaseURL, "url", "http://127.0.0.1:8077", "Potato server to load (loopback only)")
	fs.IntVar(&o.Annotators, "annotators", 100, "concurrent annotators")
	fs.DurationVar(&o.Duration, "duration", 60*time.Second, "stop after this long")
	fs.IntVar(&o.MaxRequests, "max-requests", 200000, "stop after this many requests")
	fs.DurationVar(&o.Think, "think", 200*time.Millisecond, "mean pause between an annotator's actions")
	fs.DurationVar(&o.Ramp, "ramp", 10*time.Second, "spread the annotators' logins over this time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	res, err := loadgen.RunPotato(ctx, o)
	if err != nil {
		return err
	}
	return res.Write(out)
}
