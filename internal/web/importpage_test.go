package web_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// upload posts one file to the project's import page, with the given
// re-import boxes ticked.
func (b *browser) upload(slug, name, content string, boxes ...string) page {
	b.f.t.Helper()
	tok := b.csrf("/p/" + slug + "/import")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("_csrf", tok)
	for _, box := range boxes {
		mw.WriteField(box, "1")
	}
	fw, _ := mw.CreateFormFile("files", name)
	fw.Write([]byte(content))
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+"/p/"+slug+"/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.do(req)
}

// TestImportPageReimport uploads a file that changes a summary other
// annotators have labelled: the page lists the change and writes nothing,
// refuses it with "Apply changes" alone, and applies it, saying loudly that
// labels were deleted, with both boxes ticked.
func TestImportPageReimport(t *testing.T) {
	w := newWorkFixture(t)
	b := w.browser()
	b.login("lea", testPassword)
	// doc-1 as imported by the fixture, with s1's first sentence reworded
	// and a corrected title.
	changed := `{"id":"doc-1","kind":"dialogue","title":"Parks","turns":[{"speaker":"Speaker 1","text":"The council approved the park budget."},{"speaker":"Speaker 2","text":"The vote was five to two."}],` +
		`"summaries":[{"id":"s1","topic":"Parks","sentences":[{"text":"The council passed the budget."},{"text":"The vote was unanimous <script>alert(1)</script>."}]}]}`

	// ann has labelled s1 in the browser.
	a := w.assign["ann"][0]
	sum := must(w.store.Summary(w.ctx, a.SummaryID))(t)
	if sum.ExternalID != "s1" {
		t.Fatalf("ann's first summary is %s", sum.ExternalID)
	}
	ann := must(w.store.UserByName(w.ctx, "ann"))(t)
	if _, err := w.store.SaveSentenceLabel(w.ctx, a.ID, ann.ID, a.Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful}); err != nil {
		t.Fatal(err)
	}

	p := b.upload("alpha", "fix.jsonl", changed)
	if p.status != http.StatusConflict {
		t.Fatalf("without update: %d\n%s", p.status, p.body)
	}
	p.textIn(t, tid("import-changes"), "refused: 1 annotator has already labelled it", "document doc-1 title: metadata")
	p = b.upload("alpha", "fix.jsonl", changed, "update")
	if p.status != http.StatusConflict {
		t.Fatalf("update alone: %d\n%s", p.status, p.body)
	}
	// The metadata change is applied, so no longer listed as waiting.
	p.textIn(t, tid("import-changes"), "refused: 1 annotator has already labelled it")
	p.absentIn(t, tid("import-changes"), "title: metadata")
	sum = must(w.store.Summary(w.ctx, a.SummaryID))(t)
	if sum.Sentences[0].Text != "The council approved the budget." {
		t.Fatalf("a refused update wrote %q", sum.Sentences[0].Text)
	}
	p = b.upload("alpha", "fix.jsonl", changed, "update", "relabel")
	if p.status != http.StatusOK {
		t.Fatalf("update and relabel: %d\n%s", p.status, p.body)
	}
	p.textIn(t, tid("import-applied"), "Labels deleted:")
	sum = must(w.store.Summary(w.ctx, a.SummaryID))(t)
	if sum.Sentences[0].Text != "The council passed the budget." {
		t.Fatalf("after relabel: %q", sum.Sentences[0].Text)
	}
}

// TestImportPageListsBoundedChanges: a re-import that differs in more
// places than the page lists shows the first ones and counts the rest.
func TestImportPageListsBoundedChanges(t *testing.T) {
	w := newWorkFixture(t)
	b := w.browser()
	b.login("lea", testPassword)
	file := func(title string) string {
		var s strings.Builder
		for i := range 250 {
			fmt.Fprintf(&s, `{"id":"many-%d","title":%q,"sentences":["A cat sat."],"summaries":[{"id":"many-s%d","sentences":[{"text":"A cat sat."}]}]}`+"\n", i, title, i)
		}
		return s.String()
	}
	if p := b.upload("alpha", "many.jsonl", file("")); p.status != http.StatusOK {
		t.Fatalf("first import: %d\n%s", p.status, p.body)
	}
	p := b.upload("alpha", "many.jsonl", file("Cats"))
	if p.status != http.StatusConflict {
		t.Fatalf("re-import: %d", p.status)
	}
	if n := strings.Count(p.body, "title: metadata"); n != 200 {
		t.Errorf("%d changes listed, want 200", n)
	}
	p.textIn(t, tid("import-changes-more"), "50 more differences")
	p = b.upload("alpha", "many.jsonl", file("Cats"), "update")
	if p.status != http.StatusOK {
		t.Fatalf("update: %d", p.status)
	}
	p.textIn(t, tid("import-changes-more"), "50 more differences")
}
