package tasks_test

import (
	"context"
	"database/sql"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// TestEvalVersionFollowsGoldAndResults: the eval version changes with
// every write of gold (one at a time, or by an import that holds the
// triggers) and of an assistant run's results, and stays as it is when
// annotators save and submit labels, which still change the report
// version.
func TestEvalVersionFollowsGoldAndResults(t *testing.T) {
	ctx := context.Background()
	s := testkit.OpenStore(t)
	p := testkit.Must(s.CreateProject(ctx, domain.Project{Slug: "ev", Name: "ev", Settings: domain.DefaultSettings()}))(t)
	lead := testkit.Must(s.CreateUser(ctx, "lead", "", "a long enough password", false))(t)
	ann := testkit.Must(s.CreateUser(ctx, "ann", "", "a long enough password", false))(t)
	if err := s.SetMember(ctx, p.ID, ann.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	testkit.Must(s.Import(ctx, p.ID, []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"One."}, Summaries: []domain.SummaryInput{
		{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "A."}, {Text: "B."}}}}}}))(t)
	sums := testkit.Must(s.SummaryIDs(ctx, p.ID, nil))(t)
	testkit.Must(s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: sums}))(t)
	db, err := sql.Open("sqlite", "file:"+s.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sents := testkit.Must(tasks.IDList(ctx, db, `SELECT id FROM summary_sentences ORDER BY id`))(t)
	versions := func() (report, eval int64) {
		t.Helper()
		return testkit.Must(s.ReportVersion(ctx, p.ID))(t), testkit.Must(s.EvalVersion(ctx, p.ID))(t)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	step := func(what string, evalChanges bool, write func()) {
		t.Helper()
		r0, e0 := versions()
		write()
		r1, e1 := versions()
		if r1 == r0 {
			t.Errorf("%s: the report version stayed at %d", what, r0)
		}
		if (e1 != e0) != evalChanges {
			t.Errorf("%s: eval version %d -> %d, want a change: %v", what, e0, e1, evalChanges)
		}
	}
	q := testkit.Must(s.Queue(ctx, p.ID, ann.ID))(t)
	a := q[0]
	v := a.Version
	step("a label saved", false, func() {
		v = testkit.Must(s.SaveSentenceLabel(ctx, a.ID, ann.ID, v, domain.SentenceLabel{SentenceID: sents[0], Label: domain.LabelFaithful}))(t)
	})
	step("gold set", true, func() {
		testkit.Must(s.SetGold(ctx, p.ID, sents[0], lead.ID, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}}))(t)
	})
	step("gold changed", true, func() { exec(`UPDATE gold_sentences SET label = 'unfaithful' WHERE sentence_id = ?`, sents[0]) })
	step("gold removed", true, func() { exec(`DELETE FROM gold_sentences WHERE sentence_id = ?`, sents[0]) })
	exec(`INSERT INTO assist_runs (project_id, protocol, model) VALUES (?, 'single', 'm')`, p.ID)
	step("a result written", true, func() {
		exec(`INSERT INTO assist_outputs (run_id, sentence_id, label, output) SELECT max(id), ?, 'faithful', '{}' FROM assist_runs`, sents[1])
	})
	step("a result changed", true, func() { exec(`UPDATE assist_outputs SET label = 'unfaithful'`) })
	step("a result removed", true, func() { exec(`DELETE FROM assist_outputs`) })
	step("documents imported with gold", true, func() {
		testkit.Must(s.Import(ctx, p.ID, []domain.DocumentInput{{ExternalID: "d2", Sentences: []string{"Two."}, Summaries: []domain.SummaryInput{
			{ExternalID: "s2", Sentences: []domain.SentenceInput{{Text: "C.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}}}}}}}))(t)
	})
	step("a label changed", false, func() {
		v = testkit.Must(s.SaveSentenceLabel(ctx, a.ID, ann.ID, v, domain.SentenceLabel{SentenceID: sents[0], Label: domain.LabelUnfaithful, Explanation: "No."}))(t)
		testkit.Must(s.SaveSentenceLabel(ctx, a.ID, ann.ID, v, domain.SentenceLabel{SentenceID: sents[1], Label: domain.LabelFaithful}))(t)
	})
}
