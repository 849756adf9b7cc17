package web_test

import (
	"fmt"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/report"
)

// reportFixture is a project "rep" with gold on two summaries of three
// sentences, annotators ann_a, ann_b and ann_c in two calibration rounds
// and an assistant run; lea leads it and oscar leads another project. In round c1 they label (F faithful, U unfaithful):
//
//	sentence  gold  ann_a  ann_b  ann_c
//	s1..s6    FFUUFU FFUFFU FFUUFU FUUUFF
//
// and in round c2 everyone gives gold; every assignment is submitted. The assistant gives gold except F
// on s4 and s6.
type reportFixture struct {
	*fixture
	project *domain.Project
}

const (
	repGold = "FFUUFU"
	// repSummary1 is the first summary's external id, with a character
	// that HTML escapes.
	repSummary1 = "sum<1>"
)

var repLabels = map[string]string{"ann_a": "FFUFFU", "ann_b": "FFUUFU", "ann_c": "FUUUFF"}

func repWord(c byte) string {
	if c == 'U' {
		return domain.LabelUnfaithful
	}
	return domain.LabelFaithful
}

func newReportFixture(t *testing.T) *reportFixture {
	t.Helper()
	return reportFixtureOn(t, newFixture(t))
}

// reportFixtureOn seeds the report fixture's project on f's server.
func reportFixtureOn(t *testing.T, f *fixture) *reportFixture {
	t.Helper()
	lead := f.user("lea", false)
	oscar := f.user("oscar", false)
	f.project("beta", map[*domain.User]string{oscar: domain.RoleLead})
	names := []string{"ann_a", "ann_b", "ann_c"}
	members := map[*domain.User]string{lead: domain.RoleLead}
	var users []*domain.User
	for _, n := range names {
		u := f.user(n, false)
		users = append(users, u)
		members[u] = domain.RoleAnnotator
	}
	p := f.project("rep", members)
	var docs []domain.DocumentInput
	for d := range 2 {
		sum := domain.SummaryInput{ExternalID: []string{repSummary1, "sum2"}[d], Model: "secret-model-name"}
		for i := range 3 {
			sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", d*3+i+1), Gold: &domain.GoldInput{Label: repWord(repGold[d*3+i])}})
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("doc%d", d+1), Sentences: []string{"Source."}, Summaries: []domain.SummaryInput{sum}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	var sentences []int64 // s1..s6
	summaryOf := map[int64]int64{}
	for _, id := range sums {
		s, err := f.store.Summary(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range s.Sentences {
			sentences = append(sentences, x.ID)
			summaryOf[x.ID] = id
		}
	}
	var ids []int64
	for _, u := range users {
		ids = append(ids, u.ID)
	}
	for round, r := range []string{"c1", "c2"} {
		rd, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: r, Kind: domain.RoundCalibration, Annotators: ids, Summaries: sums})
		if err != nil {
			t.Fatal(err)
		}
		for i, u := range users {
			q, err := f.store.Queue(f.ctx, p.ID, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range q {
				if a.RoundID != rd.ID {
					continue
				}
				v := a.Version
				for j, sid := range sentences {
					if summaryOf[sid] != a.SummaryID {
						continue
					}
					want := repGold[j]
					if round == 0 {
						want = repLabels[names[i]][j]
					}
					l := domain.SentenceLabel{SentenceID: sid, Label: repWord(want), Ambiguous: new(bool)}
					if want == 'U' {
						l.ErrorTypes = []string{"contradiction"}
						l.Explanation = "Not what the source says."
					}
					if v, err = f.store.SaveSentenceLabel(f.ctx, a.ID, u.ID, v, l); err != nil {
						t.Fatal(err)
					}
				}
				if err := f.store.Submit(f.ctx, a.ID, u.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	var outs []assiststore.AssistOutput
	for j, sid := range sentences {
		l := repWord(repGold[j])
		if j == 3 || j == 5 {
			l = domain.LabelFaithful
		}
		outs = append(outs, assiststore.AssistOutput{SentenceID: sid, Label: l, Status: assiststore.AssistOutputOK, Output: []byte("{}")})
	}
	if _, err := assiststore.New(f.store).ImportAssistRuns(f.ctx, p.ID, []assiststore.AssistRunImport{{Run: assiststore.AssistRun{Protocol: "single", Model: "secret-model-name"}, Outputs: outs}}); err != nil {
		t.Fatal(err)
	}
	return &reportFixture{fixture: f, project: p}
}

// build is the report the pages should show: the same data, options,
// bootstrap and seed.
func (r *reportFixture) build(t *testing.T, round, dimension string) *report.Report {
	t.Helper()
	p, err := r.store.ProjectBySlug(r.ctx, r.project.Slug)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.store.ReportData(r.ctx, p.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(p.Slug, d, p.Settings, report.Options{Round: round, Dimension: dimension, Bootstrap: report.DefaultBootstrap, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// lead returns a browser logged in as the project's lead.
func (r *reportFixture) lead(t *testing.T) *browser {
	t.Helper()
	b := r.browser()
	if p := b.login("lea", testPassword); p.status != 303 {
		t.Fatalf("login: %d", p.status)
	}
	return b
}
