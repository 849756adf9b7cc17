package app_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/report"
	"annotate/internal/tasks"
)

type fixture struct {
	ctx     context.Context
	store   *tasks.Store
	project *domain.Project
	users   map[string]*domain.User
}

// newFixture makes a project with a lead, an adjudicator and three
// annotators, one document with a two-sentence summary, and every
// annotator's submitted labels on it in a calibration round (the third
// annotator disagrees on the second sentence).
func newFixture(t *testing.T, hideNames bool) *fixture {
	t.Helper()
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	set := domain.DefaultSettings()
	set.AnonymousAdjudication = hideNames
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Name: "P", Settings: set})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ctx: ctx, store: s, project: p, users: map[string]*domain.User{}}
	for name, role := range map[string]string{"lea": domain.RoleLead, "adj": domain.RoleAdjudicator, "ann": domain.RoleAnnotator, "bob": domain.RoleAnnotator, "cat": domain.RoleAnnotator} {
		u, err := s.CreateUser(ctx, name, "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetMember(ctx, p.ID, u.ID, role); err != nil {
			t.Fatal(err)
		}
		f.users[name] = u
	}
	docs := []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"The council met.", "It deferred the budget."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "The council met."}, {Text: "It approved the budget."}}}}}}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	r, err := app.New(s).StartRound(ctx, p, app.RoundRequest{Name: "cal", Kind: domain.RoundCalibration, AnnotatorNames: []string{"ann", "bob", "cat"}})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	summary, err := s.Summary(ctx, sum[0])
	if err != nil {
		t.Fatal(err)
	}
	no := false
	for _, name := range []string{"ann", "bob", "cat"} {
		q, err := s.Queue(ctx, p.ID, f.users[name].ID)
		if err != nil || len(q) != 1 || q[0].RoundID != r.ID {
			t.Fatalf("queue of %s: %v %v", name, q, err)
		}
		v := q[0].Version
		for i, sent := range summary.Sentences {
			l := domain.SentenceLabel{SentenceID: sent.ID, Label: domain.LabelFaithful, Ambiguous: &no}
			if name == "cat" && i == 1 {
				l = domain.SentenceLabel{SentenceID: sent.ID, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "Deferred, not approved.", Ambiguous: &no}
			}
			if v, err = s.SaveSentenceLabel(ctx, q[0].ID, f.users[name].ID, v, l); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Submit(ctx, q[0].ID, f.users[name].ID); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// TestStartRoundDealsOnlyAnnotators: a lead or an adjudicator named as an
// annotator, by username or by id, refuses the round naming the field and
// the person; nothing is written. Annotators alone start it.
func TestStartRoundDealsOnlyAnnotators(t *testing.T) {
	f := newFixture(t, false)
	ops := app.New(f.store)
	before, _ := f.store.Rounds(f.ctx, f.project.ID)
	_, err := ops.StartRound(f.ctx, f.project, app.RoundRequest{Name: "r2", Kind: domain.RoundProduction, PerItem: 1,
		Annotators: []int64{f.users["adj"].ID}, AnnotatorNames: []string{"ann", "LEA", "nobody"}})
	in, ok := app.AsInvalid(err)
	if !ok || domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("err = %v, want field errors", err)
	}
	want := []app.FieldError{
		{Field: "annotators[0]", Message: `"adj" is an adjudicator of this project, not an annotator: only annotators are dealt work`},
		{Field: "annotators[2]", Message: `"LEA" is a lead of this project, not an annotator: only annotators are dealt work`},
		{Field: "annotators[3]", Message: `"nobody" is not a member of this project`},
	}
	if len(in.Fields) != len(want) {
		t.Fatalf("fields %+v", in.Fields)
	}
	for i := range want {
		if in.Fields[i] != want[i] {
			t.Errorf("field %d: %+v, want %+v", i, in.Fields[i], want[i])
		}
	}
	if after, _ := f.store.Rounds(f.ctx, f.project.ID); len(after) != len(before) {
		t.Fatal("a refused round was written")
	}
	r, err := ops.StartRound(f.ctx, f.project, app.RoundRequest{Name: "r2", Kind: domain.RoundProduction, PerItem: 2, AnnotatorNames: []string{"ann", "bob"}})
	if err != nil || r.PerItem != 2 {
		t.Fatalf("round %+v %v", r, err)
	}
}

// TestStartRoundChecksEveryField: each field at fault is named at once.
func TestStartRoundChecksEveryField(t *testing.T) {
	f := newFixture(t, false)
	_, err := app.New(f.store).StartRound(f.ctx, f.project, app.RoundRequest{Name: " ", Kind: domain.RoundProduction, PerItem: 3,
		AnnotatorNames: []string{"ann", "bob"}, Sample: -1})
	in, ok := app.AsInvalid(err)
	if !ok {
		t.Fatalf("err = %v", err)
	}
	var fields []string
	for _, fe := range in.Fields {
		fields = append(fields, fe.Field)
	}
	if got := strings.Join(fields, ","); got != "name,per_item,sample" {
		t.Fatalf("fields %s (%v)", got, in)
	}
	_, err = app.New(f.store).StartRound(f.ctx, f.project, app.RoundRequest{Name: "x", Kind: "weekly", AnnotatorNames: []string{"ann"}})
	if in, ok := app.AsInvalid(err); !ok || in.Fields[0].Field != "kind" {
		t.Fatalf("a round of an unknown kind: %v", err)
	}
}

// TestReportNamesBySettings: on a project that hides who labelled what,
// the report and the ratings table name annotators by the project's
// pseudonyms everywhere a name appears, unless real names are asked for.
func TestReportNamesBySettings(t *testing.T) {
	f := newFixture(t, true)
	ops := app.New(f.store)
	aliases, err := f.store.Pseudonyms(f.ctx, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	opt := report.Options{Dimension: "faithfulness@sentence"}
	rep, err := ops.Report(f.ctx, f.project, opt, app.NamesBySettings)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.Write(&buf, "json"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{`"ann"`, `"bob"`, `"cat"`} {
		if strings.Contains(buf.String(), name) {
			t.Errorf("the report names %s", name)
		}
	}
	if !strings.Contains(buf.String(), `"`+aliases.Username("cat")+`"`) {
		t.Errorf("the report lacks cat's pseudonym %q", aliases.Username("cat"))
	}
	data, err := f.store.ReportData(f.ctx, f.project.ID, opt.Filter())
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := ops.WriteRatings(f.ctx, &buf, f.project, data, opt, app.NamesBySettings); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), ",cat,") || !strings.Contains(buf.String(), ","+aliases.Username("cat")+",") {
		t.Errorf("ratings table:\n%s", buf.String())
	}
	rep, err = ops.Report(f.ctx, f.project, opt, app.RealNames)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	rep.Write(&buf, "json")
	if !strings.Contains(buf.String(), `"cat"`) {
		t.Error("real names asked for, not given")
	}
}
