package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"annotate/internal/assiststore"
)

// TestRevealShowsThatSentencesPanel saves the first label of a sentence
// in a project that shows the assistant after the first label: the answer
// carries the newest run's result for that sentence, and no other's.
func TestRevealShowsThatSentencesPanel(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	sents := w.sentences[a.SummaryID]
	var outs []assiststore.AssistOutput
	for i, sid := range sents {
		outs = append(outs, assiststore.AssistOutput{SentenceID: sid, Label: "faithful", Status: assiststore.AssistOutputOK, Output: []byte(fmt.Sprintf(
			`{"protocol":"single","adjudicator":{"label":"faithful","report":"Report on sentence %d.","citations":[1]},"evidence":[1],"status":"ok"}`, i+1))})
	}
	if _, err := assiststore.New(w.store).ImportAssistRuns(w.ctx, w.project.ID, []assiststore.AssistRunImport{{Run: assiststore.AssistRun{Protocol: "single"}, Outputs: outs}}); err != nil {
		t.Fatal(err)
	}
	b := w.browser()
	b.login("ann", testPassword)
	p := b.save(a, sents[1], "0", url.Values{"label": {"faithful"}, "ambiguous": {"no"}, "index": {"2"}})
	if p.status != http.StatusOK {
		t.Fatalf("save: %d %s", p.status, p.body)
	}
	// The answer holds sentence 2's panel, and sentence 1's report
	// nowhere in it.
	p.textIn(t, tid("assist-2"), "Report on sentence 2.")
	if strings.Contains(p.body, "Report on sentence 1.") {
		t.Fatalf("the answer carries sentence 1's report:\n%s", p.body)
	}
}
