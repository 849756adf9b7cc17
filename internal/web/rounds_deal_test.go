package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// dealt lists a round's (summary, annotator) pairs in a stable order.
func dealt(t *testing.T, w *workFixture, roundID int64) []string {
	t.Helper()
	rows, err := w.store.RoundAssignments(w.ctx, roundID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		a, err := w.store.AssignmentByID(w.ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d:%s", a.SummaryID, r.Username))
	}
	slices.Sort(out)
	return out
}

// TestRoundsPageDealsLikeAssign: the Rounds page and `annotate assign`
// both go through tasks.StartRound, so the page's round equals the one
// StartRound makes from the same request, and the page says how it dealt.
func TestRoundsPageDealsLikeAssign(t *testing.T) {
	w := newWorkFixture(t)
	var docs []domain.DocumentInput
	for d := 0; d < 4; d++ {
		doc := domain.DocumentInput{ExternalID: fmt.Sprintf("extra-%d", d), Sentences: []string{"A sentence."}}
		for k := 0; k < 3; k++ {
			doc.Summaries = append(doc.Summaries, domain.SummaryInput{ExternalID: fmt.Sprintf("extra-%d-%d", d, k), Sentences: []domain.SentenceInput{{Text: "A."}}})
		}
		docs = append(docs, doc)
	}
	if _, err := w.store.Import(w.ctx, w.project.ID, docs); err != nil {
		t.Fatal(err)
	}
	ann := must(w.store.UserByName(w.ctx, "ann"))(t)
	bob := must(w.store.UserByName(w.ctx, "bob"))(t)
	lead := w.browser()
	lead.login("lea", testPassword)
	tok := lead.csrf("/p/alpha/rounds")
	p := lead.post("/p/alpha/rounds", url.Values{"_csrf": {tok}, "name": {"web"}, "kind": {"production"}, "per_item": {"1"},
		"annotators": {strconv.FormatInt(ann.ID, 10), strconv.FormatInt(bob.ID, 10)}, "sample": {"7"}, "seed": {"11"}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("status %d", p.status)
	}
	web, err := w.store.RoundByName(w.ctx, w.project.ID, "web")
	if err != nil {
		t.Fatal(err)
	}
	cli, err := w.store.StartRound(w.ctx, w.project.ID, domain.RoundRequest{Name: "cli", Kind: domain.RoundProduction, PerItem: 1,
		Annotators: []int64{ann.ID, bob.ID}, Sample: 7, Seed: 11, Dealing: domain.DealBalanced})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := dealt(t, w, web.ID), dealt(t, w, cli.ID); !slices.Equal(a, b) || len(a) != 7 {
		t.Errorf("the page dealt %v\nStartRound dealt %v", a, b)
	}
	page := lead.get(p.header.Get("Location"))
	if got := page.testText("dealing"); got != "7 summaries drawn at random with seed 11. Dealt for balance: every annotator's load is within one summary of the others'." {
		t.Errorf("dealing %q", got)
	}

	// Ticking "keep a document's summaries together" deals by document.
	p = lead.post("/p/alpha/rounds", url.Values{"_csrf": {tok}, "name": {"by doc"}, "kind": {"production"}, "per_item": {"1"},
		"annotators": {strconv.FormatInt(ann.ID, 10), strconv.FormatInt(bob.ID, 10)}, "keep_documents": {"true"}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("status %d", p.status)
	}
	byDoc := must(w.store.RoundByName(w.ctx, w.project.ID, "by doc"))(t)
	if d := must(w.store.DealingOf(w.ctx, byDoc.ID))(t); d.Dealing != domain.DealByDocument {
		t.Errorf("dealing %+v, want by document", d)
	}
	if got := lead.get(p.header.Get("Location")).testText("dealing"); !strings.Contains(got, "Dealt by document") {
		t.Errorf("dealing %q", got)
	}
	docsOf := map[string]map[string]bool{} // document -> annotators
	rows := must(w.store.RoundAssignments(w.ctx, byDoc.ID))(t)
	for _, r := range rows {
		if docsOf[r.Document] == nil {
			docsOf[r.Document] = map[string]bool{}
		}
		docsOf[r.Document][r.Username] = true
	}
	for doc, who := range docsOf {
		if len(who) != 1 {
			t.Errorf("document %s went to %d annotators, want 1", doc, len(who))
		}
	}
}

// TestCloseAndReleaseCanBeUndone: a closed round reopens and a released
// assignment comes back with its labels.
func TestCloseAndReleaseCanBeUndone(t *testing.T) {
	w := newWorkFixture(t)
	rounds := must(w.store.Rounds(w.ctx, w.project.ID))(t)
	r := rounds[0]
	a := w.assign["ann"][0]
	if _, err := w.store.SaveSentenceLabel(w.ctx, a.ID, a.UserID, a.Version, domain.SentenceLabel{SentenceID: w.sentences[a.SummaryID][0], Label: domain.LabelFaithful}); err != nil {
		t.Fatal(err)
	}
	lead := w.browser()
	lead.login("lea", testPassword)
	base := fmt.Sprintf("/p/alpha/rounds/%d", r.ID)
	tok := lead.csrf(base)
	if p := lead.get(base); !p.testID("close-round-confirm") || !p.testID("close-round-yes") {
		t.Fatal("closing is not behind a confirmation")
	}
	for _, step := range []struct {
		path   string
		status int
	}{
		{fmt.Sprintf("%s/assignments/%d/release", base, a.ID), http.StatusSeeOther},
		{fmt.Sprintf("%s/assignments/%d/release", base, a.ID), http.StatusConflict},
		{fmt.Sprintf("%s/assignments/%d/release", base, 987654), http.StatusNotFound},
		{fmt.Sprintf("%s/assignments/%d/restore", base, a.ID), http.StatusSeeOther},
		{fmt.Sprintf("%s/assignments/%d/restore", base, a.ID), http.StatusConflict},
		{base + "/close", http.StatusSeeOther},
		{base + "/reopen", http.StatusSeeOther},
		{base + "/reopen", http.StatusConflict},
	} {
		if p := lead.post(step.path, url.Values{"_csrf": {tok}}); p.status != step.status {
			t.Fatalf("POST %s: %d, want %d", step.path, p.status, step.status)
		}
	}
	got, err := w.store.AssignmentByID(w.ctx, a.ID)
	if err != nil || got.Status != domain.StatusInProgress {
		t.Fatalf("restored assignment %+v, %v; want in progress", got, err)
	}
	labels := must(w.store.SentenceLabels(w.ctx, a.ID))(t)
	if labels[w.sentences[a.SummaryID][0]].Label != domain.LabelFaithful {
		t.Error("the restored assignment lost its label")
	}
	if r := must(w.store.RoundByID(w.ctx, r.ID))(t); r.Status != "open" {
		t.Errorf("round status %q after reopening", r.Status)
	}
}
