package tasks_test

import (
	"context"
	"testing"

	"annotate/internal/authn"
	"annotate/internal/domain"
)

// TestDataVersion changes with what a project's exports and report are
// made of, and only with that.
func TestDataVersion(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	lead, _ := s.CreateUser(ctx, "lea", "", "a long enough password", false)
	ann, _ := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "alpha", Name: "Alpha", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	other, _ := s.CreateProject(ctx, domain.Project{Slug: "beta", Name: "Beta", Settings: domain.DefaultSettings()})
	s.SetMember(ctx, p.ID, lead.ID, domain.RoleLead)
	s.SetMember(ctx, p.ID, ann.ID, domain.RoleAnnotator)
	version := func() string {
		t.Helper()
		v, err := s.DataVersion(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	v := version()
	step := func(name string, change bool, do func()) {
		t.Helper()
		do()
		if got := version(); (got != v) != change {
			t.Fatalf("%s: version %s -> %s, want changed=%v", name, v, got, change)
		}
		v = version()
	}
	docs := []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"A."}, Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "A."}}}}}}
	step("import", true, func() { s.Import(ctx, p.ID, docs) })
	step("import into another project", false, func() { s.Import(ctx, other.ID, docs) })
	step("checking an import", false, func() { s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: docs, DryRun: true}) })
	var round *domain.Round
	step("a round", true, func() {
		ids, _ := s.SummaryIDs(ctx, p.ID, nil)
		round, err = s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundCalibration, Annotators: []int64{ann.ID}, Summaries: ids})
		if err != nil {
			t.Fatal(err)
		}
	})
	step("a saved label", true, func() {
		q, _ := s.Queue(ctx, p.ID, ann.ID)
		sum, _ := s.Summary(ctx, q[0].SummaryID)
		if _, err := s.SaveSentenceLabel(ctx, q[0].ID, ann.ID, q[0].Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: "faithful"}); err != nil {
			t.Fatal(err)
		}
	})
	step("a skipped summary", true, func() {
		q, _ := s.Queue(ctx, p.ID, ann.ID)
		if err := s.SkipAssignment(ctx, q[0].ID, ann.ID, "the transcript is cut off"); err != nil {
			t.Fatal(err)
		}
	})
	step("settings", true, func() {
		st := p.Settings
		st.AnonymousAdjudication = true
		if err := s.UpdateSettings(ctx, p.ID, st, ""); err != nil {
			t.Fatal(err)
		}
	})
	step("closing the round", true, func() { s.CloseRound(ctx, round.ID) })
	step("a token", false, func() { authn.New(s).CreateToken(ctx, lead.ID, authn.TokenSpec{Name: "x", TTL: 3600e9}) })
}
