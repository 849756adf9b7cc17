package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

const projectUsage = `project taxonomy --project SLUG [--preset NAME | --set FILE] [--db PATH]

Shows a project's error-type taxonomy, one type a line as
"code | name | definition", or changes it. --preset picks a built-in
taxonomy (tofueval, msumbench, frank); --set FILE ("-" for standard input)
makes the project's taxonomy the custom one FILE holds, in the same form the
command prints (lines starting with # are skipped), so printing, editing and
setting round-trips. Labels already given keep their error types.`

// maxTaxonomyFile bounds what --set reads.
const maxTaxonomyFile = 1 << 20

func runProject(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "project", projectUsage)
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project (its slug; required)")
	preset := fs.String("preset", "", "use a built-in taxonomy: tofueval, msumbench or frank")
	setFile := fs.String("set", "", "make the taxonomy the custom one in this file (- for standard input)")
	pos, err := parseAnywhere(e, fs, args)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) != 1 || pos[0] != "taxonomy" || *slug == "" || (*preset != "" && *setFile != "") {
		fmt.Fprintf(e.stderr, "Usage: annotate %s\n", projectUsage)
		return errUsage
	}
	store, err := tasks.Open(ctx, *db, migrationNotice(e, *db))
	if err != nil {
		return err
	}
	defer store.Close()
	p, err := openProject(ctx, store, *slug)
	if err != nil {
		return err
	}
	set := p.Settings
	switch {
	case *preset != "":
		if _, ok := domain.ErrorPresets[*preset]; !ok {
			names := make([]string, 0, len(domain.ErrorPresets))
			for n := range domain.ErrorPresets {
				names = append(names, n)
			}
			slices.Sort(names)
			return fmt.Errorf("--preset: %q is not a built-in taxonomy (%s)", *preset, strings.Join(names, ", "))
		}
		set.ErrorPreset, set.CustomErrors = *preset, nil
	case *setFile != "":
		text, err := readTaxonomyFile(e, *setFile)
		if err != nil {
			return err
		}
		set.ErrorPreset, set.CustomErrors = "custom", domain.ParseTaxonomyLines(text)
	default:
		printTaxonomy(e.stdout, p.Slug, set)
		return nil
	}
	if err := store.UpdateSettings(ctx, p.ID, set, p.Guidelines); err != nil {
		return fmt.Errorf("%s: %w", taxonomySource(*setFile), err)
	}
	labels, err := store.UpdateSettingsPreview(ctx, p.ID)
	if err != nil {
		return err
	}
	printTaxonomy(e.stdout, p.Slug, set)
	if labels > 0 {
		fmt.Fprintf(e.stderr, "note: %d labels given before keep their error types\n", labels)
	}
	return nil
}

// readTaxonomyFile reads --set's file, at most maxTaxonomyFile bytes.
func readTaxonomyFile(e env, name string) (string, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxTaxonomyFile+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", taxonomySource(name), err)
	}
	if len(raw) > maxTaxonomyFile {
		return "", fmt.Errorf("%s: larger than %d bytes", taxonomySource(name), maxTaxonomyFile)
	}
	return string(raw), nil
}

func taxonomySource(name string) string {
	switch name {
	case "":
		return "taxonomy"
	case "-":
		return "standard input"
	}
	return name
}

// printTaxonomy writes a project's taxonomy as --set reads it.
func printTaxonomy(w io.Writer, slug string, set domain.Settings) {
	types := set.ErrorTaxonomy()
	fmt.Fprintf(w, "# error types of project %s: %s, %d types (code | name | definition)\n", slug, set.ErrorPreset, len(types))
	if len(types) > 0 {
		fmt.Fprintln(w, domain.FormatTaxonomyLines(types))
	}
}
