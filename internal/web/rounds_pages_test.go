package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// TestRoundPageListsAssignmentsInPages: a round of more assignments than
// a page holds lists them a page at a time, in the order of the whole
// list, with links between the pages; every assignment is on exactly one
// page, and the per-annotator counts still cover the whole round.
func TestRoundPageListsAssignmentsInPages(t *testing.T) {
	w := newWorkFixture(t)
	ann := must(w.store.UserByName(w.ctx, "ann"))(t)
	bob := must(w.store.UserByName(w.ctx, "bob"))(t)
	n := templates.RoundPageSize/2 + 10 // two annotators: one page and a bit
	var docs []domain.DocumentInput
	for i := range n {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("pg-%03d", i), Kind: domain.KindProse, Sentences: []string{"A thing happened."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("pg-s-%03d", i), Model: "m", Sentences: []domain.SentenceInput{{Text: "It happened."}}}}})
	}
	must(w.store.Import(w.ctx, w.project.ID, docs))(t)
	sums := must(w.store.SummaryIDs(w.ctx, w.project.ID, nil))(t)
	r := must(w.store.CreateRound(w.ctx, w.project.ID, domain.RoundSpec{Name: "big", Kind: domain.RoundCalibration, Annotators: []int64{ann.ID, bob.ID}, Summaries: sums}))(t)
	whole := must(w.store.RoundAssignments(w.ctx, r.ID))(t)
	if len(whole) <= templates.RoundPageSize {
		t.Fatalf("%d assignments: not more than a page", len(whole))
	}
	lead := w.browser()
	lead.login("lea", testPassword)
	path := fmt.Sprintf("/p/alpha/rounds/%d", r.ID)
	var listed []string
	for pages := 0; path != ""; pages++ {
		if pages > 3 {
			t.Fatal("the pages do not end")
		}
		p := lead.get(path)
		if p.status != http.StatusOK {
			t.Fatalf("%s: status %d", path, p.status)
		}
		links := p.mustFind(t, tid("assignments")).Find(`a[href*="/history/"]`)
		if links.Length() > templates.RoundPageSize {
			t.Fatalf("%s lists %d assignments", path, links.Length())
		}
		links.Each(func(_ int, s *goquery.Selection) { listed = append(listed, s.AttrOr("href", "")) })
		if got := p.mustFind(t, tid("progress")).Find("tbody tr").Length(); got != 2 {
			t.Fatalf("%s: %d progress rows", path, got)
		}
		path = p.doc(t).Find(`[data-testid="assignments-next"]`).AttrOr("href", "")
	}
	if len(listed) != len(whole) {
		t.Fatalf("the pages list %d assignments, the round has %d", len(listed), len(whole))
	}
	for i, a := range whole {
		if want := fmt.Sprintf("/p/alpha/history/%d", a.ID); listed[i] != want {
			t.Fatalf("assignment %d of the pages is %s, want %s", i, listed[i], want)
		}
	}
	// A place past the end shows the last page.
	p := lead.get(fmt.Sprintf("/p/alpha/rounds/%d?from=99999", r.ID))
	if p.status != http.StatusOK || p.doc(t).Find(`a[rel="prev"]`).Length() != 1 || p.doc(t).Find(`[data-testid="assignments-next"]`).Length() != 0 {
		t.Fatalf("past the end: status %d, not the last page", p.status)
	}
}
