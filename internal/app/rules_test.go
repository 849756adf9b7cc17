package app

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/report"
)

// memRounds is a project's members held in memory; it records the rounds
// it is asked to start.
type memRounds struct {
	members []domain.Member
	started []domain.RoundRequest
}

func (m *memRounds) Members(context.Context, int64) ([]domain.Member, error) { return m.members, nil }

func (m *memRounds) StartRound(_ context.Context, _ int64, req domain.RoundRequest) (*domain.Round, error) {
	m.started = append(m.started, req)
	return &domain.Round{ID: int64(len(m.started)), Name: req.Name, Kind: req.Kind}, nil
}

// TestStartRoundRulesOnMembersInMemory checks the rules of starting a round
// with no database: only annotators of the project are dealt work, each
// once, named by id or by username in any case; a refused request names
// every field at fault and reaches no store.
func TestStartRoundRulesOnMembersInMemory(t *testing.T) {
	ctx := context.Background()
	m := &memRounds{members: []domain.Member{
		{User: domain.User{ID: 1, Username: "lea"}, Role: domain.RoleLead},
		{User: domain.User{ID: 2, Username: "ann"}, Role: domain.RoleAnnotator},
		{User: domain.User{ID: 3, Username: "adj"}, Role: domain.RoleAdjudicator},
		{User: domain.User{ID: 4, Username: "bob"}, Role: domain.RoleAnnotator},
	}}
	a := &App{rounds: m}
	p := &domain.Project{ID: 7, Slug: "p"}

	_, err := a.StartRound(ctx, p, RoundRequest{Name: "  ", Kind: domain.RoundProduction, PerItem: 5,
		Annotators: []int64{3}, AnnotatorNames: []string{"lea", "ann", "nobody"}})
	in, ok := AsInvalid(err)
	if !ok {
		t.Fatalf("a bad request: %v, want *Invalid", err)
	}
	got := map[string]string{}
	for _, f := range in.Fields {
		got[f.Field] = f.Message
	}
	want := map[string]string{
		"name":          "give the round a name",
		"annotators[0]": `"adj" is an adjudicator of this project, not an annotator: only annotators are dealt work`,
		"annotators[1]": `"lea" is a lead of this project, not an annotator: only annotators are dealt work`,
		"annotators[3]": `"nobody" is not a member of this project`,
		"per_item":      "choose between 1 and 1 annotators per summary",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields at fault:\n%v\nwant\n%v", got, want)
	}
	if domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("code %q, want invalid", domain.ErrorCode(err))
	}
	if len(m.started) != 0 {
		t.Fatalf("a refused request reached the store: %+v", m.started)
	}

	r, err := a.StartRound(ctx, p, RoundRequest{Name: " Pilot ", Kind: domain.RoundProduction, PerItem: 2,
		Annotators: []int64{4}, AnnotatorNames: []string{" ANN", "bob", "ann"}, KeepDocuments: true, Sample: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.started) != 1 || r.Name != "Pilot" {
		t.Fatalf("started %+v, round %+v", m.started, r)
	}
	req := m.started[0]
	if !reflect.DeepEqual(req.Annotators, []int64{4, 2}) || req.Name != "Pilot" || req.PerItem != 2 ||
		req.Dealing != domain.DealByDocument || req.Sample != 3 || req.Seed != 9 {
		t.Fatalf("the store was asked for %+v; want annotators [4 2] once each, the name trimmed, dealing by document", req)
	}
}

// memReports is one project's report data and pseudonyms held in memory.
type memReports struct {
	data  *domain.ReportData
	names domain.Pseudonyms
	asked int
}

func (m *memReports) ReportData(context.Context, int64, domain.ReportFilter) (*domain.ReportData, error) {
	return m.data, nil
}

func (m *memReports) Pseudonyms(context.Context, int64) (domain.Pseudonyms, error) {
	m.asked++
	return m.names, nil
}

// TestReportNamesOnDataInMemory checks with no database that a report for
// a reader names annotators by pseudonym when the project hides who
// labelled what, and by username only when asked for real names or when
// the project does not hide them.
func TestReportNamesOnDataInMemory(t *testing.T) {
	ctx := context.Background()
	data := &domain.ReportData{
		Rounds:    []domain.Round{{ID: 1, Name: "r1", Kind: domain.RoundProduction, Status: "open"}},
		Strings:   []string{"", domain.LabelFaithful, domain.LabelUnfaithful},
		TypeLists: [][]string{{}},
	}
	users := []string{"zed_realname", "amy_realname", "kim_realname"}
	for i, u := range users {
		data.Assignments = append(data.Assignments, domain.ReportAssignment{ID: int64(i + 1), RoundID: 1, SummaryID: 10,
			UserID: int64(i + 1), Username: u, Status: domain.StatusSubmitted})
	}
	for s := int64(100); s < 104; s++ {
		data.Sentences = append(data.Sentences, domain.ReportSentence{ID: s, SummaryID: 10, Index: int(s - 99)})
		for i := range users {
			label := uint32(1)
			if i == 2 && s%2 == 0 {
				label = 2
			}
			data.Labels = append(data.Labels, domain.ReportLabel{AssignmentID: int64(i + 1), SentenceID: s, Label: label,
				Ambiguous: domain.AmbiguousNo})
		}
	}
	var names domain.Pseudonyms
	for i, u := range users {
		names.Add(int64(i+1), u)
	}
	m := &memReports{data: data, names: names}
	a := &App{reports: m}

	render := func(p *domain.Project, n Names) string {
		t.Helper()
		rep, err := a.Report(ctx, p, report.Options{}, n)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.NewEncoder(&b).Encode(rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Annotators) != len(users) {
			t.Fatalf("annotators %v, want %d", rep.Annotators, len(users))
		}
		return b.String()
	}
	hidden := domain.DefaultSettings()
	hidden.AnonymousAdjudication = true
	out := render(&domain.Project{ID: 1, Slug: "p", Settings: hidden}, NamesBySettings)
	for _, u := range users {
		if strings.Contains(out, u) {
			t.Fatalf("a report of a project that hides names holds %q", u)
		}
	}
	for i := range users {
		if !strings.Contains(out, `"`+domain.Pseudonym(i+1)+`"`) {
			t.Fatalf("a report of a project that hides names lacks %q", domain.Pseudonym(i+1))
		}
	}
	for _, c := range []struct {
		settings domain.Settings
		names    Names
	}{{hidden, RealNames}, {domain.DefaultSettings(), NamesBySettings}} {
		asked := m.asked
		out := render(&domain.Project{ID: 1, Slug: "p", Settings: c.settings}, c.names)
		for _, u := range users {
			if !strings.Contains(out, u) {
				t.Fatalf("names %v, hidden %v: the report lacks %q", c.names, c.settings.AnonymousAdjudication, u)
			}
		}
		if m.asked != asked {
			t.Fatalf("names %v, hidden %v: pseudonyms were read though not used", c.names, c.settings.AnonymousAdjudication)
		}
	}
	if _, err := a.Report(ctx, &domain.Project{ID: 1, Slug: "p", Settings: hidden}, report.Options{Round: "r9"}, NamesBySettings); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("an unknown round: %v, want not found", err)
	}
}
