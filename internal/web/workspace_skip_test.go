package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// TestSkipAndFlagForLeads: an annotator flags a sentence and skips a
// summary with a reason; the lead reads both on the read-only page, and
// the annotator's queue moves on and says the summary was skipped.
func TestSkipAndFlagForLeads(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	ann := w.browser()
	ann.login("ann", testPassword)
	lea := w.browser()
	lea.login("lea", testPassword)

	if p := ann.save(a, w.sentences[a.SummaryID][1], "0", url.Values{"label": {"faithful"}, "flag": {"This unit holds two claims."}}); p.status != http.StatusOK || !p.has(t, `[id^="mark-"][hx-swap-oob] .flag-mark`) {
		t.Fatalf("save with a flag: %d %s", p.status, p.body)
	}
	tok := ann.csrf(fmt.Sprintf("/a/%d", a.ID))
	if p := ann.post(fmt.Sprintf("/a/%d/skip", a.ID), url.Values{"_csrf": {tok}, "reason": {""}}); p.status != http.StatusSeeOther || p.header.Get("Location") != fmt.Sprintf("/a/%d", a.ID) {
		t.Fatalf("skip without a reason: %d %s", p.status, p.header.Get("Location"))
	}
	next := fmt.Sprintf("/a/%d", w.assign["ann"][1].ID)
	p := ann.post(fmt.Sprintf("/a/%d/skip", a.ID), url.Values{"_csrf": {tok}, "reason": {"The transcript stops mid-sentence."}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != next {
		t.Fatalf("skip: %d to %q, want %s", p.status, p.header.Get("Location"), next)
	}
	q := ann.get("/p/alpha")
	q.mustFind(t, tid("queue")+` [title="The transcript stops mid-sentence."]`)
	q.mustFind(t, `#main a[href="`+next+`"]`+tid("continue"))
	q.textIn(t, tid("queue"), "Parks", "The council approved the budget.")
	if cells := texts(q.mustFind(t, tid("queue")+" td")); !slices.Contains(cells, "2") {
		t.Errorf("queue rows lack a cell holding 2: %q", cells)
	}

	r := lea.get(fmt.Sprintf("/a/%d", a.ID))
	r.textIn(t, tid("skipped"), "The annotator skipped this summary:", "The transcript stops mid-sentence.")
	r.mustFind(t, "#workspace .flag-mark")
	r.textIn(t, tid("flags"), "Sentence 2: This unit holds two claims.")
	if got := textOf(r.mustFind(t, tid("flags")+` button[data-jump="1"]`)); got != "Sentence 2" {
		t.Errorf("the flag's jump button reads %q, want Sentence 2", got)
	}

	tok = ann.csrf(fmt.Sprintf("/a/%d", a.ID))
	if p := ann.post(fmt.Sprintf("/a/%d/unskip", a.ID), url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
		t.Fatalf("unskip: %d", p.status)
	}
	p = ann.get(fmt.Sprintf("/a/%d", a.ID))
	p.mustFind(t, "#workspace "+tid("skip"))
	p.noneIn(t, "#workspace", tid("skipped"))
}
