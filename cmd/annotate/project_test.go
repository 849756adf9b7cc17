package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// TestProjectTaxonomy: the taxonomy prints as lines that --set reads back,
// an edited file becomes the project's custom taxonomy with guidelines
// untouched, --preset restores a built-in one, and bad input names its
// source and changes nothing.
func TestProjectTaxonomy(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "t.db")
	s, err := tasks.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings(), Guidelines: "Judge against the source."}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	out, _, err := runCmd(t, "", nil, "project", "taxonomy", "--db", db, "--project", "p")
	if err != nil || !strings.Contains(out, "contradiction | ") || !strings.HasPrefix(out, "# error types of project p: tofueval, 7 types") {
		t.Fatalf("show: %v\n%s", err, out)
	}
	edited := out + "invented_fact | Invented fact | A fact found nowhere in the source.\n"
	out, _, err = runCmd(t, edited, nil, "project", "taxonomy", "--db", db, "--project", "p", "--set", "-")
	if err != nil || !strings.Contains(out, "custom, 8 types") {
		t.Fatalf("set: %v\n%s", err, out)
	}
	s = must(tasks.Open(ctx, db))(t)
	p := must(s.ProjectBySlug(ctx, "p"))(t)
	s.Close()
	tax := p.Settings.ErrorTaxonomy()
	if p.Settings.ErrorPreset != "custom" || len(tax) != 8 || tax[7].Name != "Invented fact" || p.Guidelines != "Judge against the source." {
		t.Fatalf("after --set: %s %+v %q", p.Settings.ErrorPreset, tax, p.Guidelines)
	}

	if _, _, err := runCmd(t, "x | dup\nx | again\n", nil, "project", "taxonomy", "--db", db, "--project", "p", "--set", "-"); err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Fatalf("a repeated code: %v", err)
	}
	if _, _, err := runCmd(t, "", nil, "project", "taxonomy", "--db", db, "--project", "p", "--preset", "nope"); err == nil || !strings.Contains(err.Error(), "frank, msumbench, tofueval") {
		t.Fatalf("an unknown preset: %v", err)
	}
	out, _, _ = runCmd(t, "", nil, "project", "taxonomy", "--db", db, "--project", "p")
	if !strings.Contains(out, "custom, 8 types") {
		t.Fatalf("a refused change changed the taxonomy:\n%s", out)
	}
	out, errOut, err := runCmd(t, "", nil, "project", "taxonomy", "--db", db, "--project", "p", "--preset", "frank")
	if err != nil || !strings.Contains(out, "frank, 7 types") || strings.Contains(errOut, "labels given before") {
		t.Fatalf("--preset: %v\n%s\n%s", err, out, errOut)
	}
	// With labels given, a change says how many keep their types.
	s = must(tasks.Open(ctx, db))(t)
	doc := domain.DocumentInput{ExternalID: "d1", Sentences: []string{"The council met."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "The council met."}}}}}
	label := domain.LabelRecord{Summary: "s1", Sentence: 1, Source: "test",
		Label: &domain.SentenceLabelInput{Annotator: "w1", Round: "r1", Label: domain.LabelFaithful}}
	if _, err := s.Import(ctx, p.ID, []domain.DocumentInput{doc}, label); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, errOut, err = runCmd(t, "", nil, "project", "taxonomy", "--db", db, "--project", "p", "--preset", "tofueval")
	if err != nil || !strings.Contains(errOut, "note: 1 labels given before keep their error types") {
		t.Fatalf("--preset with a label given: %v\n%s", err, errOut)
	}
}
