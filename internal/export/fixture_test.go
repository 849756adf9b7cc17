package export_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// exportTime is the export time of every fixture export.
var exportTime = time.Date(2026, 1, 4, 8, 0, 0, 0, time.UTC)

// fixture is a small real project: three annotators label three summaries
// in a calibration round, which gives unanimous, majority, adjudicated and
// unresolved gold; a fourth summary has imported gold and sits in a
// production round of its own.
type fixture struct {
	t       *testing.T
	ctx     context.Context
	path    string
	store   *tasks.Store
	project *domain.Project
	users   map[string]*domain.User
	sums    map[string]int64   // external id -> id
	sents   map[string][]int64 // summary external id -> sentence ids
}

func no() *bool { v := false; return &v }

func fine() domain.SentenceLabel {
	return domain.SentenceLabel{Label: domain.LabelFaithful, Ambiguous: no()}
}

func wrong(why string, types ...string) domain.SentenceLabel {
	return domain.SentenceLabel{Label: domain.LabelUnfaithful, ErrorTypes: types, Explanation: why, Ambiguous: no()}
}

func seen(l domain.SentenceLabel) domain.SentenceLabel {
	l.AssistantVisible = true
	return l
}

// fixtureDocs is the imported content.
func fixtureDocs() []domain.DocumentInput {
	yes := true
	return []domain.DocumentInput{
		{ExternalID: "d1", Kind: domain.KindProse, Domain: "news", Title: "Harbour budget",
			Sentences: []string{"The council met on Monday.", "It approved the harbour budget.", "The vote was seven to two."},
			KeyFacts:  []domain.KeyFactInput{{Text: "The council approved the budget.", Category: "event"}, {Text: "The vote was seven to two.", Category: "count"}},
			Summaries: []domain.SummaryInput{
				{ExternalID: "s1", Model: "model_A", Sentences: []domain.SentenceInput{{Text: "The council met on Monday."}, {Text: "It approved the budget unanimously."}, {Text: "The budget grows by ten percent."}}},
				{ExternalID: "s2", Model: "model_B", Sentences: []domain.SentenceInput{{Text: "The council met, says the \"clerk\"."}, {Text: "The vote was close."}}},
			}},
		{ExternalID: "d2", Kind: domain.KindDialogue, Domain: "meetingbank",
			Turns:    []domain.TurnInput{{Speaker: "Speaker 0", Text: "Item 12 is the bike lane."}, {Speaker: "Speaker 1", Text: "I move approval."}, {Speaker: "Speaker 0", Text: "The motion carries."}},
			KeyFacts: []domain.KeyFactInput{{Topic: "bike lane", Text: "The motion carried."}},
			Summaries: []domain.SummaryInput{
				{ExternalID: "s3", Topic: "bike lane", Model: "model_A", Sentences: []domain.SentenceInput{{Text: "A member moved approval."}, {Text: "The motion carried."}}},
			}},
		{ExternalID: "d3", Language: "de", Sentences: []string{"Es regnete den ganzen Tag."},
			Summaries: []domain.SummaryInput{
				{ExternalID: "s4", Model: "model_B", Sentences: []domain.SentenceInput{{Text: "Es regnete.", Translation: "It rained.",
					Gold: &domain.GoldInput{Label: domain.LabelFaithful, Ambiguous: &yes, AmbiguityType: "vagueness", AmbiguityNote: "for how long?"}}}},
			}},
	}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "annotate.db")
	s, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f := &fixture{t: t, ctx: ctx, path: path, store: s, users: map[string]*domain.User{}, sums: map[string]int64{}, sents: map[string][]int64{}}
	f.project = f.must2(s.CreateProject(ctx, domain.Project{Slug: "alpha", Name: "Alpha", Settings: domain.DefaultSettings()})).(*domain.Project)
	for _, name := range []string{"ann", "bob", "cat", "lea"} {
		u := f.must2(s.CreateUser(ctx, name, "", "a long enough password", false)).(*domain.User)
		role := domain.RoleAnnotator
		if name == "lea" {
			role = domain.RoleLead
		}
		f.must(s.SetMember(ctx, f.project.ID, u.ID, role))
		f.users[name] = u
	}
	f.must2(s.Import(ctx, f.project.ID, fixtureDocs()))
	ids := f.must2(s.SummaryIDs(ctx, f.project.ID, nil)).([]int64)
	for _, id := range ids {
		sum := f.must2(s.Summary(ctx, id)).(*domain.Summary)
		f.sums[sum.ExternalID] = id
		for _, x := range sum.Sentences {
			f.sents[sum.ExternalID] = append(f.sents[sum.ExternalID], x.ID)
		}
	}
	annotators := []int64{f.users["ann"].ID, f.users["bob"].ID, f.users["cat"].ID}
	cal := f.must2(s.CreateRound(ctx, f.project.ID, domain.RoundSpec{Name: "cal", Kind: domain.RoundCalibration, Annotators: annotators,
		Summaries: []int64{f.sums["s1"], f.sums["s2"], f.sums["s3"]}})).(*domain.Round)
	f.must2(s.CreateRound(ctx, f.project.ID, domain.RoundSpec{Name: "extra", Kind: domain.RoundProduction, PerItem: 1,
		Annotators: annotators[:1], Summaries: []int64{f.sums["s4"]}}))

	run := f.must2(assiststore.New(s).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: f.project.ID, Protocol: "single", Model: "judge"})).(*assiststore.AssistRun)
	for i, l := range []string{domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelFaithful} {
		f.must(assiststore.New(s).SaveAssistOutput(ctx, run.ID, assiststore.AssistOutput{SentenceID: f.sents["s1"][i], Label: l, Status: assiststore.AssistOutputOK, Output: []byte("{}")}))
	}

	contra := "The vote was seven to two."
	f.label("ann", "s1", true, seen(fine()), seen(wrong(contra, "contradiction")), seen(fine()))
	f.label("bob", "s1", true, fine(), wrong(contra, "contradiction"), wrong("No growth figure is given.", "reasoning_error"))
	f.label("cat", "s1", true, fine(), fine(), wrong("Ten percent is not in the document.", "contradiction"))
	f.label("ann", "s2", true, fine(), fine())
	f.label("bob", "s2", true, wrong("The clerk says nothing.", "mis_referencing"), fine())
	f.label("cat", "s2", true, wrong("Nobody is quoted.", "extrinsic_information"), fine())
	for _, u := range []string{"ann", "bob", "cat"} {
		f.summaryLabel(u, "s3", domain.SummaryLabel{Relevance: 4, TopicCategory: "main", Comment: "clear"})
		f.label(u, "s3", true, fine(), fine())
	}
	f.label("ann", "s4", false, fine())
	// 42 s of active time, as the labelling page would have reported
	// before submitting; the store bounds reports by the wall clock.
	f.exec(`UPDATE assignments SET active_seconds = 42 WHERE id = ?`, f.assignment("ann", "s1"))

	kf := func(doc string) []domain.KeyFact {
		sum := f.must2(s.Summary(ctx, f.sums[doc])).(*domain.Summary)
		return f.must2(s.KeyFacts(ctx, sum.DocumentID, sum.Topic)).([]domain.KeyFact)
	}
	d1, d2 := kf("s1"), kf("s3")
	f.link("ann", "s1", d1[0].ID, 1)
	f.link("bob", "s1", d1[0].ID, 1)
	f.link("bob", "s1", d1[1].ID, 2)
	f.link("ann", "s3", d2[0].ID, 1)
	f.link("bob", "s3", d2[0].ID, 1)
	f.link("cat", "s3", d2[0].ID, 0)

	f.must2(s.ResolveRound(ctx, f.project.ID, cal.ID))
	f.must2(s.AcceptMajority(ctx, f.project.ID, cal.ID, f.users["lea"].ID))
	f.must2(s.SetGold(ctx, f.project.ID, f.sents["s1"][2], f.users["lea"].ID, -1, domain.GoldDecision{
		GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful, ErrorTypes: []string{"extrinsic_information"}, Explanation: "No growth figure is given.", Ambiguous: no()},
		Note:       "Neither reasoning nor contradiction: the figure is invented."}))
	f.freezeTimes()
	return f
}

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) must2(v any, err error) any {
	f.t.Helper()
	f.must(err)
	return v
}

func (f *fixture) assignment(user, summary string) int64 {
	f.t.Helper()
	q := f.must2(f.store.Queue(f.ctx, f.project.ID, f.users[user].ID)).([]domain.Assignment)
	for _, a := range q {
		if a.SummaryID == f.sums[summary] {
			return a.ID
		}
	}
	f.t.Fatalf("%s has no assignment of %s", user, summary)
	return 0
}

func (f *fixture) version(aid int64) int {
	return f.must2(f.store.AssignmentByID(f.ctx, aid)).(*domain.Assignment).Version
}

func (f *fixture) label(user, summary string, submit bool, labels ...domain.SentenceLabel) {
	f.t.Helper()
	aid := f.assignment(user, summary)
	v := f.version(aid)
	for i, l := range labels {
		l.SentenceID = f.sents[summary][i]
		v = f.must2(f.store.SaveSentenceLabel(f.ctx, aid, f.users[user].ID, v, l)).(int)
	}
	if submit {
		f.must(f.store.Submit(f.ctx, aid, f.users[user].ID))
	}
}

func (f *fixture) summaryLabel(user, summary string, l domain.SummaryLabel) {
	f.t.Helper()
	aid := f.assignment(user, summary)
	f.must2(f.store.SaveSummaryLabel(f.ctx, aid, f.users[user].ID, f.version(aid), l))
}

func (f *fixture) link(user, summary string, keyFact int64, sentence int) {
	f.t.Helper()
	aid := f.assignment(user, summary)
	f.must2(f.store.SetKeyFactLink(f.ctx, aid, f.users[user].ID, f.version(aid), keyFact, f.sents[summary][sentence], true))
}

// exec runs a statement on the database file directly.
func (f *fixture) exec(q string, args ...any) {
	f.t.Helper()
	db, err := sql.Open("sqlite", "file:"+f.path+"?_pragma=busy_timeout(10000)")
	f.must(err)
	defer db.Close()
	_, err = db.ExecContext(f.ctx, q, args...)
	f.must(err)
}

// freezeTimes sets every time the fixture recorded to fixed values, so that
// golden files do not change from run to run.
func (f *fixture) freezeTimes() {
	f.t.Helper()
	db, err := sql.Open("sqlite", "file:"+f.path+"?_pragma=busy_timeout(10000)")
	f.must(err)
	defer db.Close()
	for _, q := range []string{
		`UPDATE sentence_labels SET updated_at = '2026-01-02T10:00:00.000Z'`,
		`UPDATE summary_labels SET updated_at = '2026-01-02T10:00:00.000Z'`,
		`UPDATE assignments SET started_at = CASE WHEN started_at IS NULL THEN NULL ELSE '2026-01-02T09:00:00.000Z' END,
			submitted_at = CASE WHEN submitted_at IS NULL THEN NULL ELSE '2026-01-02T11:00:00.000Z' END`,
		`UPDATE gold_sentences SET decided_at = '2026-01-03T12:00:00.000Z'`,
		`UPDATE gold_summaries SET decided_at = '2026-01-03T12:00:00.000Z'`,
	} {
		_, err := db.ExecContext(f.ctx, q)
		f.must(err)
	}
}
