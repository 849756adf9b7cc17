package web_test

import (
	"fmt"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/PuerkitoBio/goquery"
)

// TestRoundRowsTellSummariesApart: two summaries of one document, dealt to
// one annotator, show as two rows that differ in what the round page says
// of their summary (id, model, first words, sentence count).
func TestRoundRowsTellSummariesApart(t *testing.T) {
	f := newFixture(t)
	lead, ann := f.user("lea", false), f.user("ann", false)
	p := f.project("rows", map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator})
	docs := []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"The council met."}, Summaries: []domain.SummaryInput{
		{ExternalID: "s-a", Model: "model-a", Sentences: []domain.SentenceInput{{Text: "The council met on Monday."}}},
		{ExternalID: "s-b", Model: "model-b", Sentences: []domain.SentenceInput{{Text: "A meeting took place."}, {Text: "It ended."}}},
	}}}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	r, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundCalibration, Annotators: []int64{ann.ID}, Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	b.login("lea", testPassword)
	pg := b.get(fmt.Sprintf("/p/rows/rounds/%d", r.ID))
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	doc.Find(`[data-testid="assignment-summary"]`).Each(func(_ int, s *goquery.Selection) {
		cells = append(cells, strings.Join(strings.Fields(s.Text()), " "))
	})
	if len(cells) != 2 || cells[0] == cells[1] {
		t.Fatalf("summary cells %q: want two that differ", cells)
	}
	for i, want := range []string{"s-a · model-a The council met on Monday. (1 sentences)", "s-b · model-b A meeting took place. (2 sentences)"} {
		if cells[i] != want {
			t.Errorf("row %d says %q, want %q", i+1, cells[i], want)
		}
	}
}
