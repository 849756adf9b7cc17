package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/PuerkitoBio/goquery"
)

// TestFlagReachesTheQueue: three annotators agree on both sentences of a
// summary and one flags the second with a note. The first becomes gold by
// itself; the flagged one waits in the lead's adjudication queue with a
// badge and the note, and the "flagged only" filter shows it alone. The
// report's disagreement list holds it too, though all three agreed, with
// who flagged it and why, in the page, the CSV and the JSON.
func TestFlagReachesTheQueue(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	members := map[*domain.User]string{lead: domain.RoleLead}
	var anns []*domain.User
	for _, n := range []string{"ann", "bob", "cat"} {
		u := f.user(n, false)
		anns = append(anns, u)
		members[u] = domain.RoleAnnotator
	}
	p := f.project("flags", members)
	docs := []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"The council met.", "It deferred the budget."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "The council met."}, {Text: "It approved the budget."}}}}}}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	var ids []int64
	for _, u := range anns {
		ids = append(ids, u.ID)
	}
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "cal", Kind: domain.RoundCalibration, Annotators: ids, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	sum := must(f.store.Summary(f.ctx, sums[0]))(t)
	const note = "The transcript says the budget was deferred."
	no := false
	for i, u := range anns {
		q := must(f.store.Queue(f.ctx, p.ID, u.ID))(t)
		v := q[0].Version
		for j, s := range sum.Sentences {
			l := domain.SentenceLabel{SentenceID: s.ID, Label: domain.LabelFaithful, Ambiguous: &no}
			if i == 2 && j == 1 {
				l.Flag = note
			}
			var err error
			if v, err = f.store.SaveSentenceLabel(f.ctx, q[0].ID, u.ID, v, l); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.store.Submit(f.ctx, q[0].ID, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	gold := must(f.store.SummaryGold(f.ctx, sums[0]))(t)
	if g := gold[sum.Sentences[0].ID]; g.Provenance != domain.ProvUnanimous {
		t.Errorf("the unflagged sentence: %+v", g)
	}
	if g := gold[sum.Sentences[1].ID]; g.Provenance != domain.ProvUnresolved {
		t.Errorf("the flagged sentence became %s gold by itself", g.Provenance)
	}

	b := f.browser()
	b.login("lea", testPassword)
	rounds := must(f.store.Rounds(f.ctx, p.ID))(t)
	rp := b.get(fmt.Sprintf("/p/flags/rounds/%d", rounds[0].ID))
	rdoc, err := goquery.NewDocumentFromReader(strings.NewReader(rp.body))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(rdoc.Find(`[data-testid="round-waiting"]`).Text()), " "); !strings.HasPrefix(got, "1 sentences of this round wait for a decision, 1 of them flagged by an annotator.") {
		t.Errorf("the round page says %q", got)
	}
	for _, path := range []string{"/p/flags/adjudication", "/p/flags/adjudication?flagged=1"} {
		pg := b.get(path)
		if pg.status != http.StatusOK {
			t.Fatalf("%s: %d", path, pg.status)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
		if err != nil {
			t.Fatal(err)
		}
		rows := doc.Find(`[data-testid="adj-queue"] tbody tr`)
		if rows.Length() != 1 {
			t.Fatalf("%s: %d rows waiting, want the flagged sentence", path, rows.Length())
		}
		if rows.Find(`[data-testid="flag-badge"]`).Length() != 1 || strings.TrimSpace(rows.Find(`[data-testid="flag-notes"] li`).Text()) != note {
			t.Errorf("%s: the row shows no flag badge or note", path)
		}
		if strings.Contains(rows.Text(), "majority") {
			t.Errorf("%s: a flagged sentence is offered for a bulk majority", path)
		}
	}

	rep := b.get("/p/flags/report")
	if rep.status != http.StatusOK {
		t.Fatalf("report: %d", rep.status)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(rep.body))
	if err != nil {
		t.Fatal(err)
	}
	rows := doc.Find(`[data-testid="disagreements"] tbody tr`)
	if rows.Length() != 1 {
		t.Fatalf("the report lists %d disagreements, want the flagged sentence", rows.Length())
	}
	if rows.Find(`[data-testid="disagreement-flagged"]`).Length() != 1 || !strings.Contains(rows.Text(), "It approved the budget.") {
		t.Errorf("the report's row is not the flagged sentence: %q", rows.Text())
	}
	if got := strings.TrimSpace(rows.Find(`[data-testid="disagreement-flags"]`).Text()); got != "Flagged by cat: "+note {
		t.Errorf("the report's row says %q", got)
	}
	csv := b.get("/p/flags/report.csv?table=disagreements")
	if csv.status != http.StatusOK || !strings.Contains(csv.body, ",flags\r\n") && !strings.Contains(csv.body, ",flags\n") || !strings.Contains(csv.body, "cat: "+note) {
		t.Errorf("the disagreements CSV: %d %q", csv.status, csv.body)
	}
}
