package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"annotate/internal/app"
)

func runAssistImport(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "assist import", "assist import --project SLUG [--sample] [--name NAME] FILE")
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project the results belong to (required)")
	sample := fs.Bool("sample", false, "mark the runs as sample output that no model produced")
	name := fs.String("name", "", "name of the run for lines without a run field (default: the file's name)")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "annotate assist import: exactly one FILE is required")
		return errUsage
	}
	file := fs.Arg(0)
	if *name == "" {
		*name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	store, err := openExisting(ctx, e, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	p, err := openProject(ctx, store, *slug)
	if err != nil {
		return err
	}
	return app.New(store).ImportAssistRuns(ctx, p, file, f, *name, *sample, e.stdout)
}
