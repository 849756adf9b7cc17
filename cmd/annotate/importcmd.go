package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

func runImport(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "import", "import --project SLUG [--format native|tofueval|madisse|summedits] [--create] FILE...")
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project to import into (required)")
	format := fs.String("format", "", "input format; empty detects it from the files")
	create := fs.Bool("create", false, "create the project if it does not exist")
	name := fs.String("name", "", "with --create: the project's name")
	partial := fs.Bool("partial", false, "the files leave out some of their published format's columns on purpose (TofuEval's annotation_id, exp or type); without it those columns are required")
	update := fs.Bool("update", false, "apply corrected gold, labels and metadata where the data is already there and differs")
	relabel := fs.Bool("relabel", false, "with --update: also apply changed document or summary text, deleting the labels given on the old text")
	skipDocs := fs.String("skip-documents", "", "comma-separated ids of documents of a published format (TofuEval) to leave out for want of their transcript; any other such document refuses the import")
	diff := fs.String("diff", "", "write every difference from the project's data, whole, as a unified diff to this file (lines on screen show only where long values differ)")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *slug == "" || fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "annotate import: --project and at least one FILE are required")
		return errUsage
	}
	var progress io.Writer
	if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		progress = f
	}
	if *relabel && !*update {
		fmt.Fprintln(e.stderr, "annotate import: --relabel needs --update")
		return errUsage
	}
	var files []importer.File
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		var size int64
		if info, err := f.Stat(); err == nil {
			size = info.Size()
		}
		files = append(files, importer.File{Name: path, R: f, Size: size})
	}
	store, err := tasks.Open(ctx, *db, migrationNotice(e, *db))
	if err != nil {
		return err
	}
	defer store.Close()
	req := app.ImportRequest{Format: *format, Files: files, Update: *update, Relabel: *relabel,
		Options: importer.Options{Progress: progress, Partial: *partial, SkipDocuments: importer.IDList(*skipDocs)}}
	p, err := store.ProjectBySlug(ctx, *slug)
	switch {
	case domain.ErrorCode(err) == domain.ENotFound && *create:
		req.Create = &domain.Project{Slug: *slug, Name: *name, Settings: domain.DefaultSettings()}
	case domain.ErrorCode(err) == domain.ENotFound:
		return fmt.Errorf("project %q does not exist (add --create to create it)", *slug)
	case err != nil:
		return err
	default:
		req.Project = p
	}
	// The same operation as the Import page and the API: one transaction,
	// the project made inside it.
	res, st, changes, err := app.New(store).Import(ctx, req)
	if err := saveDiff(e, *diff, changes, st.Changes, err); err != nil {
		return err
	}
	if req.Create != nil {
		fmt.Fprintf(e.stdout, "created project %s\n", *slug)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	printChanges(e.stdout, changes, st.Changes)
	printStats(e.stdout, st)
	return nil
}

// saveDiff writes, when --diff names a file, the differences an import
// found: those that refused it (err is a ChangesError) or those an update
// applied. It returns the import's error, if any.
func saveDiff(e env, path string, applied []domain.Change, all int, err error) error {
	var ce *domain.ChangesError
	changes := applied
	if errors.As(err, &ce) {
		changes, all = ce.Changes, ce.All()
	} else if err != nil {
		return err
	}
	if path == "" {
		return err
	}
	f, ferr := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if ferr == nil {
		ferr = domain.WriteDiff(f, changes, max(0, all-len(changes)))
		if cerr := f.Close(); ferr == nil {
			ferr = cerr
		}
	}
	if ferr != nil {
		return errors.Join(err, fmt.Errorf("--diff %s: %w", path, ferr))
	}
	cut := 0
	for _, c := range changes {
		if c.Cut {
			cut++
		}
	}
	switch {
	case all > len(changes) || cut > 0:
		fmt.Fprintf(e.stderr, "%d of %d differences written to %s, %d of them cut to where they differ (the first %d MiB are kept whole, and at most %d differences)\n",
			len(changes), all, path, cut, domain.MaxChangeBytes>>20, domain.MaxKeptChanges)
	default:
		fmt.Fprintf(e.stderr, "%d differences written whole to %s\n", len(changes), path)
	}
	return err
}

// printChanges lists the changes an update applied (all of them, of which
// changes holds those kept), saying loudly which ones deleted annotators'
// labels.
func printChanges(w io.Writer, changes []domain.Change, all int) {
	for _, c := range changes {
		prefix := "updated"
		if c.Reason != "" {
			prefix = "RELABEL"
		}
		fmt.Fprintf(w, "%s: %s\n", prefix, c)
	}
	if all > len(changes) {
		fmt.Fprintf(w, "updated: %d more, not listed\n", all-len(changes))
	}
}

func printStats(w io.Writer, st domain.ImportStats) {
	fmt.Fprintf(w, "imported: %d documents (%d already there), %d document units, %d summaries (%d already there), %d summary sentences, %d key facts, %d gold sentence labels, %d gold summary labels, %d ambiguity labels\n",
		st.Documents, st.DocumentsExisting, st.Units, st.Summaries, st.SummariesExisting, st.Sentences, st.KeyFacts, st.GoldSentences, st.GoldSummaries, st.AmbiguityLabels)
	if st.Scales > 0 || st.Scores > 0 {
		fmt.Fprintf(w, "rating scales: %d defined, %d scores\n", st.Scales, st.Scores)
	}
	if len(st.ErrorTypesAdded) > 0 {
		fmt.Fprintf(w, "warning: error types the project's taxonomy lacked, kept and added to it: %s (rename or define them in the project settings)\n", strings.Join(st.ErrorTypesAdded, ", "))
	}
	if st.Labels+st.LabelsExisting+st.SummaryLabels > 0 {
		fmt.Fprintf(w, "annotators' labels: %d sentence labels (%d already there), %d summary labels, %d submitted assignments, %d rounds and %d imported accounts created\n",
			st.Labels, st.LabelsExisting, st.SummaryLabels, st.Assignments, st.Rounds, st.Accounts)
	}
}
