package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"annotate/internal/assist"
	"annotate/internal/assistjob"
	"annotate/internal/assiststore"
)

func runAssistRun(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "assist run", "assist run --project SLUG --protocol single|debate [--llm-url URL --llm-model NAME --llm-key-env VAR] [--concurrency N] [--limit N] [--resume RUN_ID]")
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project whose summary sentences to judge (required)")
	protocol := fs.String("protocol", "single", "single (Advocate, Skeptic, Adjudicator) or debate (multi-agent debate with opening stances)")
	concurrency := fs.Int("concurrency", 4, "sentences, and requests, in progress at once")
	limit := fs.Int("limit", 0, "judge only the first N sentences (0: all)")
	resume := fs.Int64("resume", 0, "continue run RUN_ID, skipping its finished sentences")
	llm := addLLMFlags(e, fs)
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "annotate assist run: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	if *concurrency < 1 {
		fmt.Fprintln(e.stderr, "annotate assist run: --concurrency must be at least 1")
		return errUsage
	}
	cfg, err := llm.config(e, *concurrency)
	if err != nil {
		return err
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
	job := assistjob.New(store, cfg, *concurrency)
	var run *assiststore.AssistRun
	if *resume != 0 {
		runs, err := projectRuns(ctx, store, p, *resume)
		if err != nil {
			return err
		}
		run = &runs[0]
		if cfg.Model != "" && cfg.Model != run.Model {
			return fmt.Errorf("run %d asks %s; resume it without --llm-model or with the same model", run.ID, run.Model)
		}
		if run.Status == assiststore.RunImported {
			return fmt.Errorf("run %d was imported from a file and cannot be resumed", run.ID)
		}
	} else {
		if run, err = job.CreateLimit(ctx, p.ID, *protocol, cfg.Model, *limit); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "run %d: %s protocol, model %s, %d sentences\n", run.ID, run.Protocol, run.Model, run.Total)
	bar := progressbar.NewOptions(run.Total,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription(fmt.Sprintf("run %d", run.ID)),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
	)
	stats, runErr := job.Execute(ctx, run.ID, func(pr assist.Progress) { bar.Set(pr.Done) })
	bar.Finish()
	fmt.Fprintln(e.stderr)
	final, err := assiststore.New(store).AssistRunByID(context.WithoutCancel(ctx), run.ID)
	if err != nil {
		return err
	}
	printRunSummary(e.stdout, final, stats)
	if runErr != nil && ctx.Err() != nil {
		return fmt.Errorf("run %d cancelled; resume with: annotate assist run --project %s --resume %d", run.ID, p.Slug, run.ID)
	}
	if runErr != nil {
		return runErr
	}
	if final.Status == assiststore.RunFailed {
		return fmt.Errorf("run %d failed: %s", run.ID, final.Error)
	}
	return nil
}

// printRunSummary writes the final line of a run: sentences, calls, cache
// hits, tokens and failures of this invocation.
func printRunSummary(w io.Writer, r *assiststore.AssistRun, st assist.RunStats) {
	fmt.Fprintf(w, "run %d %s: %d sentences (%d judged, %d failed, %d already done); %d calls, %d cache hits, %d tokens (%d prompt + %d completion), %d failures, %s\n",
		r.ID, r.Status, st.Items, st.Succeeded, st.Failed, st.Skipped,
		st.Calls, st.CacheHits, st.PromptTokens+st.CompletionTokens, st.PromptTokens, st.CompletionTokens, st.Failures,
		st.Duration.Round(time.Millisecond))
}
