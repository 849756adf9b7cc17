package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

func runAssistExport(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "assist export", "assist export --project SLUG [--run ID] [--out FILE]")
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project (required)")
	runID := fs.Int64("run", 0, "export only this run (default: every run, oldest first)")
	out := fs.String("out", "", "write to FILE instead of standard output")
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
	w := e.stdout
	var f *os.File
	if *out != "" {
		if f, err = os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, exportFileMode); err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	n := 0
	for i := range runs {
		c, err := exportRun(ctx, store, p, &runs[i], bw)
		n += c
		if err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %d results of %d runs to %s\n", n, len(runs), *out)
	}
	return nil
}

// exportRun writes every result of one run, one line each, and returns how
// many it wrote. The line's run field is the run's title, so that import
// reads a file of several runs back into as many runs.
func exportRun(ctx context.Context, store *tasks.Store, p *domain.Project, r *assiststore.AssistRun, w io.Writer) (int, error) {
	enc := assist.NewEncoder(w)
	n := 0
	err := assiststore.New(store).EachAssistOutput(ctx, r.ID, func(o assiststore.ExportedOutput) error {
		var res assist.SentenceResult
		if err := json.Unmarshal(o.Output, &res); err != nil {
			return fmt.Errorf("run %d, %s sentence %d: stored result: %w", r.ID, o.SummaryID, o.Index, err)
		}
		n++
		return enc.Encode(assist.ExportRecord{
			ProjectID: p.Slug, DocumentID: o.DocumentID, SummaryID: o.SummaryID, SentenceID: strconv.Itoa(o.Index),
			Run: r.Title(), Sample: r.Sample, Result: res,
		})
	})
	return n, err
}
