package web_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
)

// TestAssistEvalFollowsGoldAndOutputs: the assistant page's evaluation of
// a run against the gold is kept between views, and is computed again
// once gold or the run's results change: its n counts the sentences with
// both a gold label and the run's label.
func TestAssistEvalFollowsGoldAndOutputs(t *testing.T) {
	w := newWorkFixture(t)
	ctx := w.ctx
	var sums []int64
	for sum := range w.sentences {
		sums = append(sums, sum)
	}
	slices.Sort(sums)
	var sents []int64
	for _, sum := range sums {
		sents = append(sents, w.sentences[sum]...)
	}
	if len(sents) < 3 {
		t.Fatalf("the fixture has %d sentences, want 3", len(sents))
	}
	as := assiststore.New(w.store)
	r := must(as.CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: w.project.ID, Protocol: "single", Model: "m", Status: assiststore.RunImported}))(t)
	output := func(sid int64, label string) {
		t.Helper()
		data, _ := json.Marshal(panelResult(label))
		if err := as.SaveAssistOutput(ctx, r.ID, assiststore.AssistOutput{SentenceID: sid, Label: label, Output: data}); err != nil {
			t.Fatal(err)
		}
	}
	lead := must(w.store.UserByName(ctx, "lea"))(t)
	gold := func(sid int64) {
		t.Helper()
		if _, err := w.store.SetGold(ctx, w.project.ID, sid, lead.ID, -1, domain.GoldDecision{
			GoldValues: domain.GoldValues{Label: domain.LabelFaithful}}); err != nil {
			t.Fatal(err)
		}
	}
	lea := w.as("lea")
	n := func() string {
		t.Helper()
		p := lea.get("/p/alpha/assist")
		row := p.mustFind(t, tid(fmt.Sprintf("eval-%d", r.ID)))
		return strings.TrimSpace(row.Find("td").Eq(3).Text())
	}

	output(sents[0], domain.LabelFaithful)
	output(sents[1], domain.LabelUnfaithful)
	gold(sents[0])
	if got := n(); got != "1" {
		t.Fatalf("n = %q with gold on one labelled sentence, want 1", got)
	}
	if got := n(); got != "1" {
		t.Fatalf("n = %q on a second view, want 1", got)
	}
	// An annotator's label leaves the evaluation as it was kept. To see
	// whether it was computed again, the run's label of the gold sentence
	// is removed behind the eval version's back: computed again, n would
	// fall to 0.
	db, err := sql.Open("sqlite", "file:"+w.store.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`UPDATE assist_outputs SET label = '' WHERE run_id = ?1 AND sentence_id = ?2`,
		`UPDATE eval_versions SET version = version - 1 WHERE project_id = ?3`} {
		if _, err := db.ExecContext(ctx, q, r.ID, sents[0], w.project.ID); err != nil {
			t.Fatal(err)
		}
	}
	ann := must(w.store.UserByName(ctx, "ann"))(t)
	a := w.assign["ann"][0]
	if _, err := w.store.SaveSentenceLabel(ctx, a.ID, ann.ID, a.Version, domain.SentenceLabel{SentenceID: w.sentences[a.SummaryID][0], Label: domain.LabelFaithful}); err != nil {
		t.Fatal(err)
	}
	if got := n(); got != "1" {
		t.Fatalf("n = %q after an annotator's label, want the kept 1", got)
	}
	if _, err := db.ExecContext(ctx, `UPDATE assist_outputs SET label = 'faithful' WHERE run_id = ? AND sentence_id = ?`, r.ID, sents[0]); err != nil {
		t.Fatal(err)
	}
	gold(sents[1])
	if got := n(); got != "2" {
		t.Fatalf("n = %q once the second labelled sentence has gold, want 2", got)
	}
	gold(sents[2])
	output(sents[2], domain.LabelFaithful)
	if got := n(); got != "3" {
		t.Fatalf("n = %q once the run labelled a third sentence with gold, want 3", got)
	}
}
