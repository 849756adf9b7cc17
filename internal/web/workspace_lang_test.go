package web_test

import (
	"fmt"
	"testing"

	"annotate/internal/domain"
)

// TestWorkspaceNamesDocumentAndLanguage: the page shows the document's
// title, marks the document and summary with their language, and the
// breadcrumb numbers the summary as the header does.
func TestWorkspaceNamesDocumentAndLanguage(t *testing.T) {
	f := newFixture(t)
	ann := f.user("ann", false)
	p := f.project("zh", map[*domain.User]string{ann: domain.RoleAnnotator})
	doc := domain.DocumentInput{ExternalID: "d-zh", Language: "zh", Title: "市议会会议纪要", Sentences: []string{"议会批准了公园预算。", "投票结果为五比二。"},
		Summaries: []domain.SummaryInput{{ExternalID: "s-zh", Language: "zh", Sentences: []domain.SentenceInput{{Text: "议会批准了预算。"}}}}}
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r1", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	q := must(f.store.Queue(f.ctx, p.ID, ann.ID))(t)
	b := f.browser()
	b.login("ann", testPassword)
	pg := b.get(fmt.Sprintf("/a/%d", q[0].ID))
	if got := textOf(pg.mustFind(t, tid("doc-title")+`[lang="zh"]`)); got != "市议会会议纪要" {
		t.Errorf("document title %q", got)
	}
	pg.mustFind(t, "#doc-units"+tid("document")+`[lang="zh"]`)
	pg.mustFind(t, tid("summary")+`[lang="zh"]`)
	if got := textOf(pg.mustFind(t, `[aria-current="page"]`)); got != "Summary 1 of 1" {
		t.Errorf("breadcrumb %q", got)
	}
	if got := textOf(pg.mustFind(t, tid("progress")+" > span").First()); got != "Summary 1 of 1 · 0 done" {
		t.Errorf("progress %q", got)
	}
}
