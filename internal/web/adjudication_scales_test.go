package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// TestAdjudicationImportedLabels imports two annotators' labels with
// scores on a 1–5 scale: the adjudication queue lists the summary they
// disagree on, and its page shows both annotators' labels and scores.
func TestAdjudicationImportedLabels(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("imp", map[*domain.User]string{lead: domain.RoleLead})
	lo, hi := 1, 5
	doc := domain.DocumentInput{ExternalID: "d1", Kind: domain.KindProse, Sentences: []string{"The council met on Monday."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "The council met on Tuesday.",
			Labels: []domain.SentenceLabelInput{{Annotator: "w1", Label: "unfaithful", ErrorTypes: []string{"contradiction"}}, {Annotator: "w2", Label: "faithful"}}}},
			Labels: []domain.SummaryLabelInput{{Annotator: "w1", Scores: map[string]any{"consistency": 2.0}}, {Annotator: "w2", Scores: map[string]any{"consistency": 5.0}}}}}}
	if _, _, err := f.store.ImportWith(f.ctx, domain.ImportRequest{Project: p.ID, Documents: []domain.DocumentInput{doc},
		Scales: []domain.Scale{{Name: "consistency", Title: "Consistency", Level: domain.LevelSummary, Min: &lo, Max: &hi}}}); err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	b.login("lea", testPassword)
	q := b.get("/p/imp/adjudication")
	if q.status != http.StatusOK || !strings.Contains(q.body, "faithful 1 · unfaithful 1") {
		t.Fatalf("queue: %d\n%s", q.status, q.body)
	}
	ids := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	pg := b.get(fmt.Sprintf("/p/imp/adjudication/s/%d", ids[0]))
	if pg.status != http.StatusOK || !pg.testID("adj-scales") {
		t.Fatalf("page: %d\n%s", pg.status, pg.body)
	}
	pg.textIn(t, tid("adj-scales"), "w1", "w2", "imported")
	if got := texts(pg.mustFind(t, tid("adj-scales")+" strong")); !slices.Contains(got, "2") || !slices.Contains(got, "5") {
		t.Errorf("the scale values shown are %q, want 2 and 5 among them", got)
	}
}
