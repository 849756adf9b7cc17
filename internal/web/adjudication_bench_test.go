package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/PuerkitoBio/goquery"
)

// BenchmarkAdjudicationQueue measures GET /p/ID/adjudication end to end
// over loopback for a calibration round of 200 three-sentence summaries
// labelled by three annotators, with two of every three sentences split:
// 400 sentences waiting, ranked, and the first 200 listed.
func BenchmarkAdjudicationQueue(b *testing.B) {
	br := splitQueueFixture(b)
	pg := br.get("/p/bench/adjudication")
	if pg.status != http.StatusOK || !strings.Contains(pg.testText("queue-count"), "1–200 shown of 400 matching") {
		b.Fatalf("status %d; %s", pg.status, pg.testText("queue-count"))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if pg := br.get("/p/bench/adjudication"); pg.status != http.StatusOK {
			b.Fatalf("status %d", pg.status)
		}
	}
}

// splitQueueFixture seeds a calibration round of 200 three-sentence
// summaries labelled by three annotators, two of every three sentences
// split (400 waiting), and returns the lead's browser.
func splitQueueFixture(tb testing.TB) *browser {
	tb.Helper()
	f := newFixture(tb)
	lead := f.user("lea", false)
	members := map[*domain.User]string{lead: domain.RoleLead}
	var users []*domain.User
	for _, n := range []string{"ann", "bob", "cat"} {
		u := f.user(n, false)
		users = append(users, u)
		members[u] = domain.RoleAnnotator
	}
	p := f.project("bench", members)
	doc := domain.DocumentInput{ExternalID: "d", Sentences: []string{"The council met.", "It approved the budget.", "The vote was close."}}
	for i := 0; i < 200; i++ {
		doc.Summaries = append(doc.Summaries, domain.SummaryInput{ExternalID: fmt.Sprintf("s%d", i),
			Sentences: []domain.SentenceInput{{Text: "The council met."}, {Text: "It approved the budget."}, {Text: "The vote was unanimous."}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		tb.Fatal(err)
	}
	ids := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(tb)
	var uids []int64
	for _, u := range users {
		uids = append(uids, u.ID)
	}
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundCalibration, Annotators: uids, Summaries: ids}); err != nil {
		tb.Fatal(err)
	}
	no := false
	for k, u := range users {
		q := must(f.store.Queue(f.ctx, p.ID, u.ID))(tb)
		for _, a := range q {
			sum := must(f.store.Summary(f.ctx, a.SummaryID))(tb)
			v := a.Version
			for i, x := range sum.Sentences {
				l := domain.SentenceLabel{SentenceID: x.ID, Label: domain.LabelFaithful, Ambiguous: &no}
				if i > 0 && k == i {
					l = domain.SentenceLabel{SentenceID: x.ID, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No.", Ambiguous: &no}
				}
				var err error
				if v, err = f.store.SaveSentenceLabel(f.ctx, a.ID, u.ID, v, l); err != nil {
					tb.Fatal(err)
				}
			}
			if err := f.store.Submit(f.ctx, a.ID, u.ID); err != nil {
				tb.Fatal(err)
			}
		}
	}
	br := f.browser()
	br.login("lea", testPassword)
	return br
}

// TestAdjudicationQueuePages lists a queue longer than a page: the first
// page holds the first 200 sentences, most split first, and links the
// next with the filter kept; the last page links back.
func TestAdjudicationQueuePages(t *testing.T) {
	br := splitQueueFixture(t)
	pg := br.get("/p/bench/adjudication?dim=label")
	if pg.status != http.StatusOK {
		t.Fatalf("status %d", pg.status)
	}
	if got := pg.testText("queue-count"); !strings.Contains(got, "1–200 shown of 400 matching") {
		t.Fatalf("count %q", got)
	}
	if got := queueRows(t, pg); len(got) != 200 || got[0] != "item-1" || got[199] != "item-200" {
		t.Fatalf("the first page does not hold exactly items 1 to 200: %d rows", len(got))
	}
	if next := pg.mustFind(t, tid("queue-pager")+` a[rel="next"]`).AttrOr("href", ""); next != "/p/bench/adjudication?dim=label&from=200" {
		t.Fatalf("first page links next to %q", next)
	}
	pg.noneIn(t, tid("queue-pager"), `[rel="prev"]`)
	pg = br.get("/p/bench/adjudication?dim=label&from=200")
	if got := pg.testText("queue-count"); !strings.Contains(got, "201–400 shown of 400 matching") {
		t.Fatalf("second page count %q", got)
	}
	if got := queueRows(t, pg); len(got) != 200 || got[0] != "item-201" || got[199] != "item-400" {
		t.Fatalf("the second page does not hold exactly items 201 to 400: %d rows", len(got))
	}
	if prev := pg.mustFind(t, tid("queue-pager")+` a[rel="prev"]`).AttrOr("href", ""); prev != "/p/bench/adjudication?dim=label" {
		t.Fatalf("second page links back to %q", prev)
	}
	pg.noneIn(t, tid("queue-pager"), `[rel="next"]`)
	// A page past the end shows the last one.
	if pg := br.get("/p/bench/adjudication?dim=label&from=9999"); !strings.Contains(pg.testText("queue-count"), "201–400 shown") {
		t.Fatalf("past the end: %q", pg.testText("queue-count"))
	}
}

// queueRows returns the test ids of the rows of the adjudication queue.
func queueRows(t *testing.T, p page) []string {
	t.Helper()
	var ids []string
	p.mustFind(t, tid("adj-queue")+" tbody tr").Each(func(_ int, r *goquery.Selection) {
		ids = append(ids, r.AttrOr("data-testid", ""))
	})
	return ids
}
