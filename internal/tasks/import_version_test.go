package tasks_test

import (
	"context"
	"errors"
	"testing"

	"annotate/internal/tasks"
)

// An import holds the report counter's triggers in its transaction and
// bumps the counter once: after it, a committed import has changed the
// counter, a refused or dry-run one has not, and the triggers are back
// either way (a label saved afterwards changes the counter again).
func TestImportBumpsReportVersion(t *testing.T) {
	s, as, sents := labelFixture(t)
	ctx := context.Background()
	a := as[0]
	sum, err := s.Summary(ctx, a.SummaryID)
	if err != nil {
		t.Fatal(err)
	}
	project := sum.ProjectID
	version := func() int64 {
		t.Helper()
		v, err := s.ReportVersion(ctx, project)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	doc := func(id string) tasks.DocumentInput {
		return tasks.DocumentInput{ExternalID: id, Sentences: []string{"S."}, Summaries: []tasks.SummaryInput{{ExternalID: id + "-s",
			Sentences: []tasks.SentenceInput{{Text: "T.", Labels: []tasks.SentenceLabelInput{{Annotator: "w1", Label: tasks.LabelFaithful}}}}}}}
	}
	v := version()
	mv := membershipVersion(t, ctx, s.Path(), project)
	checkRoundGold(t, ctx, s, project) // the round members are kept from here

	bad := tasks.LabelRecord{Summary: "new-s", Sentence: 2, Label: &tasks.SentenceLabelInput{Annotator: "w1", Label: tasks.LabelFaithful}, Source: "test"}
	if _, err := s.Import(ctx, project, []tasks.DocumentInput{doc("new")}, bad); tasks.ErrorCode(err) != tasks.EInvalid {
		t.Fatalf("import of a label on a missing sentence: %v, want EInvalid", err)
	}
	if got := version(); got != v {
		t.Errorf("a refused import changed the version: %d → %d", v, got)
	}
	if _, _, err := s.ImportWith(ctx, tasks.ImportRequest{Project: project, Documents: []tasks.DocumentInput{doc("dry")}, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if got := version(); got != v {
		t.Errorf("a dry run changed the version: %d → %d", v, got)
	}
	if got := membershipVersion(t, ctx, s.Path(), project); got != mv {
		t.Errorf("a refused import and a dry run changed the membership counter: %d → %d", mv, got)
	}

	st, err := s.Import(ctx, project, []tasks.DocumentInput{doc("new")})
	if err != nil {
		t.Fatal(err)
	}
	if st.Labels != 1 || st.Assignments != 1 {
		t.Errorf("import wrote %d labels in %d assignments, want 1 in 1", st.Labels, st.Assignments)
	}
	after := version()
	if after == v {
		t.Errorf("an import left the version at %d", v)
	}
	if got := membershipVersion(t, ctx, s.Path(), project); got == mv {
		t.Errorf("an import that gave out a summary left the membership counter at %d", mv)
	}
	checkRoundGold(t, ctx, s, project)
	if _, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, a.Version, tasks.SentenceLabel{SentenceID: sents[0], Label: tasks.LabelFaithful}); err != nil {
		t.Fatal(err)
	}
	if got := version(); got == after {
		t.Errorf("a label saved after an import left the version at %d: the triggers are gone", after)
	}

	// The same labels again: found through the database this time (the
	// summary and its assignment were made by an earlier import).
	st, err = s.Import(ctx, project, []tasks.DocumentInput{doc("new")})
	if err != nil {
		t.Fatal(err)
	}
	if st.Labels != 0 || st.LabelsExisting != 1 || st.Assignments != 0 {
		t.Errorf("re-import: %d labels, %d already there, %d assignments; want 0, 1, 0", st.Labels, st.LabelsExisting, st.Assignments)
	}
}

// Two labels of one annotator on one sentence in one import: the second
// is compared with the first, as with a label already in the database.
func TestImportRepeatedLabelInOneImport(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, err := s.CreateProject(ctx, tasks.Project{Slug: "p", Settings: tasks.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	d := tasks.DocumentInput{ExternalID: "d", Sentences: []string{"S."}, Summaries: []tasks.SummaryInput{{ExternalID: "s",
		Sentences: []tasks.SentenceInput{{Text: "T.", Labels: []tasks.SentenceLabelInput{
			{Annotator: "w1", Label: tasks.LabelFaithful}, {Annotator: "w1", Label: tasks.LabelUnfaithful}}}}}}}
	_, err = s.Import(ctx, p.ID, []tasks.DocumentInput{d})
	var ce *tasks.ChangesError
	if !errors.As(err, &ce) || len(ce.Changes) != 1 {
		t.Fatalf("import of two different labels by one annotator: %v, want one change", err)
	}
}
