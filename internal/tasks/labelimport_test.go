package tasks_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"annotate/internal/tasks"
)

// labelledDocs is sampleDocs with two annotators' labels on the first
// summary: they agree on its first sentence and not on its second.
func labelledDocs(secondLabel string) []tasks.DocumentInput {
	docs := sampleDocs()
	s := &docs[0].Summaries[0]
	s.Sentences[0].Gold, s.Sentences[1].Gold = nil, nil
	s.Sentences[0].Labels = []tasks.SentenceLabelInput{{Annotator: "w1", Label: "faithful"}, {Annotator: "w2", Label: "faithful"}}
	s.Sentences[1].Labels = []tasks.SentenceLabelInput{{Annotator: "w1", Label: "unfaithful", ErrorTypes: []string{"contradiction"}}, {Annotator: "w2", Label: secondLabel}}
	rel := 4
	s.Labels = []tasks.SummaryLabelInput{{Annotator: "w1", Relevance: &rel, TopicCategory: "main"}}
	return docs
}

func TestImportLabels(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, tasks.Project{Slug: "p", Settings: tasks.DefaultSettings()})
	st, err := s.Import(ctx, p.ID, labelledDocs("faithful"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Labels != 4 || st.SummaryLabels != 1 || st.Assignments != 2 || st.Rounds != 1 || st.Accounts != 2 {
		t.Fatalf("stats %+v", st)
	}
	u, err := s.UserByName(ctx, "w1")
	if err != nil || !u.Disabled {
		t.Fatalf("imported account %+v, %v", u, err)
	}
	r, err := s.RoundByName(ctx, p.ID, tasks.ImportedRound)
	if err != nil || r.Status != "closed" || r.PerItem != 2 {
		t.Fatalf("imported round %+v, %v", r, err)
	}

	t.Run("the import resolves their gold and the queue sees them", func(t *testing.T) {
		counts := checkRoundGold(t, ctx, s, p.ID)
		if len(counts) != 1 || counts[0].Unanimous != 1 || counts[0].Pending != 1 {
			t.Fatalf("gold counts %+v", counts)
		}
		rs, err := s.ResolveReady(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rs != (tasks.ResolveStats{}) {
			t.Fatalf("resolving again did %+v, want nothing", rs)
		}
	})

	t.Run("the same labels again add nothing", func(t *testing.T) {
		st, err := s.Import(ctx, p.ID, labelledDocs("faithful"))
		if err != nil {
			t.Fatal(err)
		}
		if st.Labels != 0 || st.LabelsExisting != 5 || st.Assignments != 0 || st.Rounds != 0 || st.Accounts != 0 {
			t.Fatalf("stats %+v", st)
		}
	})

	t.Run("a changed label is listed and written only on update", func(t *testing.T) {
		_, err := s.Import(ctx, p.ID, labelledDocs("unfaithful"))
		var ce *tasks.ChangesError
		if !errors.As(err, &ce) || len(ce.Changes) != 1 || ce.Changes[0].Kind != tasks.ChangeLabel ||
			!strings.Contains(ce.Error(), `summary d1-s1 sentence 2, w2 in round imported: label: "faithful" → "unfaithful"`) {
			t.Fatalf("err = %v", err)
		}
		_, applied, err := s.ImportWith(ctx, tasks.ImportRequest{Project: p.ID, Documents: labelledDocs("unfaithful"), Update: true})
		if err != nil || len(applied) != 1 {
			t.Fatalf("update: %v, %v", applied, err)
		}
	})

	t.Run("labels of a summary the project lacks are refused", func(t *testing.T) {
		_, err := s.Import(ctx, p.ID, nil, tasks.LabelRecord{Summary: "nope", Sentence: 1, Label: &tasks.SentenceLabelInput{Annotator: "w1", Label: "faithful"}, Source: "x.jsonl:3"})
		if err == nil || !strings.Contains(err.Error(), `x.jsonl:3: summary "nope" is neither in this import nor in the project`) {
			t.Fatalf("err = %v", err)
		}
		_, err = s.Import(ctx, p.ID, nil, tasks.LabelRecord{Summary: "d1-s1", Sentence: 9, Label: &tasks.SentenceLabelInput{Annotator: "w9", Label: "faithful"}, Source: "x.jsonl:4"})
		if err == nil || !strings.Contains(err.Error(), `x.jsonl:4: summary "d1-s1" has no sentence 9 (it has 2)`) {
			t.Fatalf("err = %v", err)
		}
		if _, err := s.UserByName(ctx, "w9"); err == nil {
			t.Error("a refused import left an account behind")
		}
	})
}
