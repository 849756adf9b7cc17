package tasks_test

import (
	"context"
	"testing"

	"annotate/internal/domain"
)

func TestReportVersionFollowsReportInputs(t *testing.T) {
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
	changed := func(what string, before int64) int64 {
		t.Helper()
		after := version()
		if after == before {
			t.Errorf("%s: report version stayed %d", what, before)
		}
		return after
	}
	v := version()
	if v == 0 {
		t.Errorf("version 0 after a round was dealt")
	}
	if again := version(); again != v {
		t.Errorf("reading changed the version: %d then %d", v, again)
	}
	ver, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, a.Version, domain.SentenceLabel{SentenceID: sents[0], Label: domain.LabelFaithful})
	if err != nil {
		t.Fatal(err)
	}
	v = changed("a sentence label", v)
	if _, err := s.SaveSummaryLabel(ctx, a.ID, a.UserID, ver, domain.SummaryLabel{TopicCategory: "main"}); err != nil {
		t.Fatal(err)
	}
	v = changed("a summary label", v)
	other, err := s.CreateProject(ctx, domain.Project{Slug: "other", Name: "Other", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, other.ID, []domain.DocumentInput{{ExternalID: "d", Sentences: []string{"S."}, Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: []domain.SentenceInput{{Text: "T."}}}}}}); err != nil {
		t.Fatal(err)
	}
	if got := version(); got != v {
		t.Errorf("another project's import changed this project's version: %d → %d", v, got)
	}
}
