package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// TestSplitCorrection: a lead corrects a summary's split before labelling
// starts; a split that changes the text is refused with 422 naming the
// field; once a label exists the page says why the split is locked and a
// post is refused with 409.
func TestSplitCorrection(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	other := w.assign["ann"][1]
	lead := w.browser()
	lead.login("lea", testPassword)
	path := fmt.Sprintf("/p/alpha/summaries/%d/split", a.SummaryID)
	p := lead.get(path)
	if p.status != http.StatusOK || !p.testID("split-form") {
		t.Fatalf("split page: %d", p.status)
	}
	tok := lead.csrf(path)
	joined := "The council approved the budget. The vote was unanimous <script>alert(1)</script>."
	if p := lead.post(path, url.Values{"_csrf": {tok}, "sentences": {joined}}); p.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", p.status, p.body)
	}
	sum := must(w.store.Summary(w.ctx, a.SummaryID))(t)
	if len(sum.Sentences) != 1 || sum.Sentences[0].Text != joined {
		t.Fatalf("sentences after the correction: %+v", sum.Sentences)
	}
	if p := lead.post(path, url.Values{"_csrf": {tok}, "sentences": {"The council approved a different budget."}}); p.status != http.StatusUnprocessableEntity ||
		!strings.Contains(p.body, "only move the boundaries") {
		t.Errorf("changed text: %d", p.status)
	}

	// Once ann labels the other summary, its split is locked.
	otherPath := fmt.Sprintf("/p/alpha/summaries/%d/split", other.SummaryID)
	if _, err := w.store.SaveSentenceLabel(w.ctx, other.ID, other.UserID, other.Version, domain.SentenceLabel{SentenceID: w.sentences[other.SummaryID][0], Label: domain.LabelFaithful}); err != nil {
		t.Fatal(err)
	}
	locked := lead.get(otherPath)
	locked.textIn(t, tid("split-locked"), "labelling has started")
	locked.mustFind(t, tid("split-sentences"))
	locked.noneIn(t, "#main", tid("split-form")+`, form[method="post"] textarea[name="sentences"]`)
	if p := lead.post(otherPath, url.Values{"_csrf": {tok}, "sentences": {"The council approved the budget.\nThe vote was unanimous <script>alert(1)</script>."}}); p.status != http.StatusConflict ||
		!strings.Contains(p.body, "labelling has started") {
		t.Errorf("locked split: %d", p.status)
	}
}
