package tasks_test

import (
	"context"
	"errors"
	"testing"

	"annotate/internal/domain"
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
	doc := func(id string) domain.DocumentInput {
		return domain.DocumentInput{ExternalID: id, Sentences: []string{"S."}, Summaries: []domain.SummaryInput{{ExternalID: id + "-s",
			Sentences: []domain.SentenceInput{{Text: "T.", Labels: []domain.SentenceLabelInput{{Annotator: "w1", Label: domain.LabelFaithful}}}}}}}
	}
	v := version()
	mv := membershipVersion(t, ctx, s.Path(), project)
	checkRoundGold(t, ctx, s, project) // the round members are kept from here

	bad := domain.LabelRecord{Summary: "new-s", Sentence: 2, Label: &domain.SentenceLabelInput{Annotator: "w1", Label: domain.LabelFaithful}, Source: "test"}
	if _, err := s.Import(ctx, project, []domain.DocumentInput{doc("new")}, bad); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("import of a label on a missing sentence: %v, want EInvalid", err)
	}
	if got := version(); got != v {
		t.Errorf("a refused import changed the version: %d → %d", v, got)
	}
	if _, _, err := s.ImportWith(ctx, domain.ImportRequest{Project: project, Documents: []domain.DocumentInput{doc("dry")}, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if got := version(); got != v {
		t.Errorf("a dry run changed the version: %d → %d", v, got)
	}
	if got := membershipVersion(t, ctx, s.Path(), project); got != mv {
		t.Errorf("a refused import and a dry run changed the membership counter: %d → %d", mv, got)
	}

	st, err := s.Import(ctx, project, []domain.DocumentInput{doc("new")})
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
	if _, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, a.Version, domain.SentenceLabel{SentenceID: sents[0], Label: domain.LabelFaithful}); err != nil {
		t.Fatal(err)
	}
	if got := version(); got == after {
		t.Errorf("a label saved after an import left the version at %d: the triggers are gone", after)
	}

	// The same labels again: found through the database this time (the
	// summary and its assignment were made by an earlier import).
	st, err = s.Import(ctx, project, []domain.DocumentInput{doc("new")})
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
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	d := domain.DocumentInput{ExternalID: "d", Sentences: []string{"S."}, Summaries: []domain.SummaryInput{{ExternalID: "s",
		Sentences: []domain.SentenceInput{{Text: "T.", Labels: []domain.SentenceLabelInput{
			{Annotator: "w1", Label: domain.LabelFaithful}, {Annotator: "w1", Label: domain.LabelUnfaithful}}}}}}}
	_, err = s.Import(ctx, p.ID, []domain.DocumentInput{d})
	var ce *domain.ChangesError
	if !errors.As(err, &ce) || len(ce.Changes) != 1 {
		t.Fatalf("import of two different labels by one annotator: %v, want one change", err)
	}
}
