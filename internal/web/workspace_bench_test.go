package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
)

// BenchmarkWorkspacePage measures GET /a/ID end to end over loopback: the
// session, the SQLite reads, the lexical evidence for each sentence and the
// render, for a 5,000-word dialogue and a 10-sentence summary.
func BenchmarkWorkspacePage(b *testing.B) {
	f := newFixture(b)
	ann := f.user("ann", false)
	p := f.project("bench", map[*domain.User]string{ann: domain.RoleAnnotator})
	words := strings.Join(strings.Fields(strings.Repeat("the council discussed the budget for parks and schools ", 3))[:20], " ")
	doc := domain.DocumentInput{ExternalID: "d", Kind: domain.KindDialogue}
	for i := 0; i < 250; i++ {
		doc.Turns = append(doc.Turns, domain.TurnInput{Speaker: fmt.Sprintf("Speaker %d", i%5), Text: fmt.Sprintf("%s %d", words, i)})
	}
	sum := domain.SummaryInput{ExternalID: "s", Topic: "Parks"}
	for i := 0; i < 10; i++ {
		sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: fmt.Sprintf("The council approved budget item %d for the parks.", i)})
	}
	doc.Summaries = []domain.SummaryInput{sum}
	for i := 0; i < 8; i++ {
		doc.KeyFacts = append(doc.KeyFacts, domain.KeyFactInput{Topic: "Parks", Text: fmt.Sprintf("Budget item %d was approved.", i)})
	}
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		b.Fatal(err)
	}
	ids := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(b)
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: ids}); err != nil {
		b.Fatal(err)
	}
	q := must(f.store.Queue(f.ctx, p.ID, ann.ID))(b)
	br := f.browser()
	br.login("ann", testPassword)
	path := fmt.Sprintf("/a/%d", q[0].ID)
	if pg := br.get(path); pg.status != http.StatusOK {
		b.Fatalf("status %d", pg.status)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if pg := br.get(path); pg.status != http.StatusOK {
			b.Fatalf("status %d", pg.status)
		}
	}
}

// BenchmarkWorkspacePageWithRuns measures GET /a/ID on a project of
// 20,000 summary sentences (1,000 documents, 4 summaries of 5 sentences
// each) with 10 assistant runs, each with an output for every sentence:
// the shape where the assistant panel's lookup by sentence matters.
func BenchmarkWorkspacePageWithRuns(b *testing.B) {
	f := newFixture(b)
	ann := f.user("ann", false)
	p := f.project("bench", map[*domain.User]string{ann: domain.RoleAnnotator})
	var docs []domain.DocumentInput
	for d := 0; d < 1000; d++ {
		doc := domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", d), Sentences: []string{"The council met.", "It approved the budget.", "The vote was close."}}
		for k := 0; k < 4; k++ {
			sum := domain.SummaryInput{ExternalID: fmt.Sprintf("d%d-s%d", d, k)}
			for i := 0; i < 5; i++ {
				sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: fmt.Sprintf("The council approved item %d.", i)})
			}
			doc.Summaries = append(doc.Summaries, sum)
		}
		docs = append(docs, doc)
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		b.Fatal(err)
	}
	ids := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(b)
	var outputs []assiststore.AssistOutput
	for _, id := range ids {
		sum := must(f.store.Summary(f.ctx, id))(b)
		for _, x := range sum.Sentences {
			outputs = append(outputs, assiststore.AssistOutput{SentenceID: x.ID, Label: "faithful", Status: assiststore.AssistOutputOK,
				Output: []byte(`{"protocol":"single","adjudicator":{"label":"faithful","report":"Supported by unit 1.","citations":[1]},"evidence":[1],"status":"ok"}`)})
		}
	}
	if len(outputs) != 20000 {
		b.Fatalf("%d sentences, want 20000", len(outputs))
	}
	for r := 0; r < 10; r++ {
		if _, err := assiststore.New(f.store).ImportAssistRuns(f.ctx, p.ID, []assiststore.AssistRunImport{{Run: assiststore.AssistRun{Protocol: "single", Name: fmt.Sprintf("run %d", r)}, Outputs: outputs}}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: ids}); err != nil {
		b.Fatal(err)
	}
	q := must(f.store.Queue(f.ctx, p.ID, ann.ID))(b)
	br := f.browser()
	br.login("ann", testPassword)
	path := fmt.Sprintf("/a/%d", q[len(q)/2].ID)
	if pg := br.get(path); pg.status != http.StatusOK {
		b.Fatalf("status %d", pg.status)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if pg := br.get(path); pg.status != http.StatusOK {
			b.Fatalf("status %d", pg.status)
		}
	}
}
