package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"annotate/internal/domain"
	"annotate/internal/export"
)

func runExport(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "export", `export --project SLUG --what gold|raw|tofueval|scores [--round NAME] [--provenance LIST]
                [--format jsonl|csv] [--anonymise] [--out FILE] [--db PATH]

gold      one JSON Lines record per summary in the native import format: the
          sentences' gold labels with provenance, the summary label and its
          faithfulness, completeness and conciseness scores (or one CSV row
          per sentence). Importing it rebuilds the same gold.
raw       one row per sentence and annotator with every label, times, and
          whether the assistant was visible and followed.
tofueval  TofuEval's factual-consistency CSV columns (CSV only).
scores    per summary and per model scores and the share of faithful
          summaries (CSV by default).

A JSON Lines export starts with a header record ("kind": "export") naming
the project, round, export time and schema version; a CSV export written
with --out gets the header beside it as FILE.meta.json, and on standard
output it is printed to standard error. See docs/export.md.`)
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project to export (its slug; required)")
	what := fs.String("what", "", "what to export: "+strings.Join(export.Kinds, ", ")+" (required)")
	round := fs.String("round", "", "keep one round (its name): its summaries and, for raw, its labels")
	prov := fs.String("provenance", "", "keep gold of these provenances, comma-separated: "+strings.Join(domain.GoldProvenances, ", ")+", "+export.NoGold)
	format := fs.String("format", "", "jsonl or csv (default: jsonl for gold and raw, csv for tofueval and scores)")
	anon := fs.Bool("anonymise", false, "name people A1, A2, ... instead of by username")
	keepFormulas := fs.Bool("keep-formulas", false, "CSV: write cells beginning with = + - @ tab or CR as stored, instead of prefixing an apostrophe so spreadsheets do not run them")
	out := fs.String("out", "", "write to FILE instead of standard output")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *slug == "" || *what == "" {
		fmt.Fprintln(e.stderr, "annotate export: --project and --what are required")
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "annotate export: unexpected argument %q\n", fs.Arg(0))
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
	var provs []string
	if *prov != "" {
		provs = strings.Split(*prov, ",")
	}
	x, err := export.New(ctx, store, p, export.Options{What: *what, Format: *format, Round: *round, Provenance: provs, Anonymise: *anon, KeepFormulas: *keepFormulas})
	if err != nil {
		return err
	}
	if *out == "" {
		if x.Header().Format == export.CSV {
			meta, _ := json.Marshal(x.Header())
			fmt.Fprintf(e.stderr, "%s\n", meta)
		}
		return x.Write(ctx, e.stdout)
	}
	return writeExportFile(ctx, x, *out)
}

// exportFileMode is the mode of export files: like the database, readable
// by its owner only, since exports hold labels and annotators' names.
const exportFileMode = 0o600

// writeExportFile writes the export to a temporary file beside path and
// renames it into place, so that a failed export leaves no partial file;
// a CSV export gets its header as path.meta.json. The temporary file is
// removed when the export fails or is interrupted (Ctrl+C or SIGTERM
// cancel ctx); one left by a process that was killed outright is removed
// by the next export to the same path.
func writeExportFile(ctx context.Context, x *export.Export, path string) error {
	removeStaleExports(path)
	tmp, err := os.CreateTemp(filepath.Dir(path), exportTempPrefix(path)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(exportFileMode); err != nil {
		tmp.Close()
		return err
	}
	if err := x.Write(ctx, tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if x.Header().Format == export.CSV {
		meta, _ := json.MarshalIndent(x.Header(), "", "  ")
		if err := writePrivate(path+".meta.json", append(meta, '\n')); err != nil {
			return err
		}
	}
	return os.Rename(tmp.Name(), path)
}

// exportTempPrefix names the temporary files of an export to path:
// ".NAME." followed by the writer's process id, a dash and a random part.
func exportTempPrefix(path string) string { return "." + filepath.Base(path) + "." }

// removeStaleExports deletes the temporary files of earlier exports to
// path whose process no longer runs.
func removeStaleExports(path string) {
	prefix := exportTempPrefix(path)
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), globEscape(prefix)+"*-*"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), prefix)
		pid, err := strconv.Atoi(rest[:max(strings.IndexByte(rest, '-'), 0)])
		if err != nil || pid <= 0 || processRuns(pid) {
			continue
		}
		os.Remove(m)
	}
}

// processRuns reports whether a process with this id exists.
func processRuns(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}

// globEscape quotes the characters filepath.Match treats specially.
func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// writePrivate writes data to path with exportFileMode, replacing what was there.
func writePrivate(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, exportFileMode)
	if err != nil {
		return err
	}
	if err := f.Chmod(exportFileMode); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
