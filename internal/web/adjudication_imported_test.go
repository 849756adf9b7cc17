package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// TestReopenImportedGoldFromQueue: a sentence whose imported gold both
// annotators labelled against is listed on the queue page; reopening it
// there puts it in the queue, and the imported decision stays in the
// history.
func TestReopenImportedGoldFromQueue(t *testing.T) {
	w := newWorkFixture(t)
	ctx := w.ctx
	doc := domain.DocumentInput{ExternalID: "gold-doc", Sentences: []string{"The council approved the budget five to two."},
		Summaries: []domain.SummaryInput{{ExternalID: "gold-sum", Sentences: []domain.SentenceInput{
			{Text: "The budget passed unanimously.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}},
		}}}}
	if _, err := w.store.Import(ctx, w.project.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	set := w.project.Settings
	set.ErrorTypes, set.Ambiguity, set.KeyFacts, set.Relevance, set.TopicCategory = false, false, false, false, false
	if err := w.store.UpdateSettings(ctx, w.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	ids := must(w.store.SummaryIDs(ctx, w.project.ID, []string{"gold-doc"}))(t)
	ann, bob := w.assign["ann"][0].UserID, w.assign["bob"][0].UserID
	r, err := w.store.CreateRound(ctx, w.project.ID, domain.RoundSpec{Name: "with gold", Kind: domain.RoundCalibration, Annotators: []int64{ann, bob}, Summaries: ids})
	if err != nil {
		t.Fatal(err)
	}
	sum := must(w.store.Summary(ctx, ids[0]))(t)
	sid := sum.Sentences[0].ID
	for _, uid := range []int64{ann, bob} {
		q := must(w.store.QueueEntries(ctx, w.project.ID, uid))(t)
		for _, a := range q {
			if a.RoundID != r.ID {
				continue
			}
			if _, err := w.store.SaveSentenceLabel(ctx, a.ID, uid, a.Version, domain.SentenceLabel{SentenceID: sid, Label: domain.LabelUnfaithful, Explanation: "It was five to two."}); err != nil {
				t.Fatal(err)
			}
			if err := w.store.Submit(ctx, a.ID, uid); err != nil {
				t.Fatal(err)
			}
		}
	}
	lead := w.browser()
	lead.login("lea", testPassword)
	p := lead.get("/p/alpha/adjudication")
	row := p.testText("imported-1")
	if !strings.Contains(row, "The budget passed unanimously.") || !strings.Contains(row, "2 against gold") {
		t.Fatalf("imported gold row %q", row)
	}
	tok := lead.csrf("/p/alpha/adjudication")
	v := must(w.store.GoldVersions(ctx, ids[0]))(t)
	res := lead.post("/p/alpha/adjudication/reopen", url.Values{"_csrf": {tok}, "sentence": {strconv.FormatInt(sid, 10)},
		"version": {strconv.Itoa(v[sid])}, "reopen_note": {"Both annotators read five to two."}})
	if res.status != http.StatusSeeOther {
		t.Fatalf("reopen: %d %s", res.status, res.body)
	}
	g := must(w.store.SummaryGold(ctx, ids[0]))(t)
	if !g[sid].Reopened() || g[sid].Note != "Both annotators read five to two." {
		t.Errorf("gold after reopening: %+v", g[sid])
	}
	q := lead.get("/p/alpha/adjudication")
	if got := textOf(q.mustFind(t, tid("adj-queue")+" "+tid("item-1"))); !strings.Contains(got, "The budget passed unanimously.") {
		t.Errorf("the reopened sentence is not first in the queue: %q", got)
	}
	// The imported list is gone with its only row.
	q.noneIn(t, "#main", tid("imported-gold"))
	hist, err := w.store.GoldHistory(ctx, w.project.ID, ids[0], 10)
	if err != nil || len(hist) < 2 {
		t.Fatalf("history %v, %v", hist, err)
	}
}
