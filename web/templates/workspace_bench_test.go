package templates

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// benchWorkspace is a labelling page for a 5,000-word dialogue (250 turns
// of 20 words) and a 10-sentence summary with key facts.
func benchWorkspace() WorkspaceView {
	v := WorkspaceView{AssignmentID: 1, Version: 3, Position: 4, Total: 20, Done: 3, Topic: "Budget", Dialogue: true,
		Schema: SchemaView{Faithfulness: true, ErrorTypes: true, Explanation: true, Ambiguity: true, KeyFacts: true, Relevance: true, TopicCategory: true, UnsureNote: true, AssistantMode: "after_first_label"}}
	for _, t := range domain.ErrorPresets["tofueval"] {
		v.Schema.ErrorTaxonomy = append(v.Schema.ErrorTaxonomy, TaxonomyView(t))
	}
	for _, t := range domain.AmbiguityTypes {
		v.Schema.AmbiguityTypes = append(v.Schema.AmbiguityTypes, TaxonomyView(t))
	}
	words := strings.Repeat("the council discussed the budget for parks and ", 3)
	words = strings.Join(strings.Fields(words)[:20], " ")
	for i := 1; i <= 250; i++ {
		v.Units = append(v.Units, UnitView{Index: i, Speaker: fmt.Sprintf("Speaker %d", i%5), Text: words})
	}
	for i := 1; i <= 10; i++ {
		v.Sentences = append(v.Sentences, SentenceView{ID: int64(i), Index: i, Text: "The council approved the park budget after a long debate.",
			Label: SentenceLabelView{Label: "unfaithful", ErrorTypes: map[string]bool{"contradiction": true}, Explanation: "The vote failed."}, AssistantShown: i%2 == 0,
			Assist: AssistView{Evidence: []int{3, 17, 120}}})
	}
	g := KeyFactGroup{}
	for i := 0; i < 8; i++ {
		g.Facts = append(g.Facts, KeyFactView{ID: int64(i), Text: "The park budget was approved.", Links: make([]bool, 10)})
	}
	v.KeyFacts = []KeyFactGroup{g}
	return v
}

// BenchmarkWorkspaceRender renders the labelling page for a 5,000-word
// document with 10 summary sentences.
func BenchmarkWorkspaceRender(b *testing.B) {
	v := benchWorkspace()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := WorkspacePage(v).Render(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
