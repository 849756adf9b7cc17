package tasks_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

func TestImport(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})

	st, err := s.Import(ctx, p.ID, testkit.SampleDocs())
	if err != nil {
		t.Fatal(err)
	}
	want := domain.ImportStats{Documents: 2, Units: 4, Summaries: 2, Sentences: 3, KeyFacts: 1, GoldSentences: 2, GoldSummaries: 1, AmbiguityLabels: 1}
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("first import = %+v, want %+v", st, want)
	}

	t.Run("re-import adds nothing", func(t *testing.T) {
		st, err := s.Import(ctx, p.ID, testkit.SampleDocs())
		if err != nil {
			t.Fatal(err)
		}
		want := domain.ImportStats{DocumentsExisting: 2, SummariesExisting: 2}
		if !reflect.DeepEqual(st, want) {
			t.Fatalf("re-import = %+v, want %+v", st, want)
		}
		o, _ := s.ProjectOverview(ctx, p.ID)
		if o.Documents != 2 || o.Summaries != 2 || o.Sentences != 3 || o.KeyFacts != 1 || o.GoldSentences != 2 {
			t.Fatalf("overview after re-import = %+v", o)
		}
	})

	t.Run("a bad record writes nothing", func(t *testing.T) {
		docs := []domain.DocumentInput{
			{ExternalID: "d3", Sentences: []string{"New."}, Summaries: []domain.SummaryInput{{ExternalID: "d3-s1", Sentences: []domain.SentenceInput{{Text: "New."}}}}},
			{ExternalID: "d4", Kind: "poem", Sentences: []string{"Bad."}},
		}
		if _, err := s.Import(ctx, p.ID, docs); domain.ErrorCode(err) != domain.EInvalid {
			t.Fatalf("err = %v, want invalid", err)
		}
		o, _ := s.ProjectOverview(ctx, p.ID)
		if o.Documents != 2 || o.Summaries != 2 {
			t.Fatalf("partial write: overview = %+v", o)
		}
	})

	t.Run("document rows", func(t *testing.T) {
		rows, err := s.DocumentRows(ctx, p.ID, 10, 0)
		if err != nil || len(rows) != 2 {
			t.Fatalf("rows = %+v, %v", rows, err)
		}
		if r := rows[0]; r.ExternalID != "d1" || r.Units != 2 || r.Summaries != 1 || r.Sentences != 2 || r.KeyFacts != 1 || r.Topics != 1 {
			t.Fatalf("row 0 = %+v", r)
		}
	})
}

// TestImportWritesLongSummariesInOrder imports a summary of more
// sentences than one statement writes (sentenceRows): each sentence must
// keep its index, text and translation, and its gold and labels must
// reach it and no other.
func TestImportWritesLongSummariesInOrder(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p := testkit.Must(s.CreateProject(ctx, domain.Project{Slug: "long", Settings: domain.DefaultSettings()}))(t)
	sum := domain.SummaryInput{ExternalID: "s"}
	const n = 150
	for i := 1; i <= n; i++ {
		sent := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i), Translation: fmt.Sprintf("Satz %d.", i)}
		if i%7 == 0 {
			sent.Gold = &domain.GoldInput{Label: domain.LabelUnfaithful, Explanation: fmt.Sprintf("gold of %d", i)}
		}
		if i%13 == 0 {
			sent.Labels = []domain.SentenceLabelInput{{Annotator: "w1", Round: "r", Label: domain.LabelUnfaithful, Explanation: fmt.Sprintf("label of %d", i)}}
		}
		sum.Sentences = append(sum.Sentences, sent)
	}
	st := testkit.Must(s.Import(ctx, p.ID, []domain.DocumentInput{{ExternalID: "d", Sentences: []string{"Text."}, Summaries: []domain.SummaryInput{sum}}}))(t)
	if st.Sentences != n {
		t.Fatalf("%d sentences counted, want %d", st.Sentences, n)
	}
	ids := testkit.Must(s.SummaryIDs(ctx, p.ID, []string{"d"}))(t)
	got := testkit.Must(s.Summary(ctx, ids[0]))(t)
	if len(got.Sentences) != n {
		t.Fatalf("%d sentences stored, want %d", len(got.Sentences), n)
	}
	for i, x := range got.Sentences {
		if x.Index != i+1 || x.Text != fmt.Sprintf("Sentence %d.", i+1) || x.Translation != fmt.Sprintf("Satz %d.", i+1) {
			t.Fatalf("sentence %d stored as %+v", i+1, x)
		}
	}
	for _, q := range []struct{ what, query, text string }{
		{"gold", `SELECT ss.idx, g.explanation FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id WHERE g.explanation LIKE 'gold of %'`, "gold of %d"},
		{"labels", `SELECT ss.idx, l.explanation FROM sentence_labels l JOIN summary_sentences ss ON ss.id = l.sentence_id`, "label of %d"},
	} {
		rows, err := s.Reader(ctx).QueryContext(ctx, q.query)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for rows.Next() {
			var idx int
			var text string
			if err := rows.Scan(&idx, &text); err != nil {
				t.Fatal(err)
			}
			if text != fmt.Sprintf(q.text, idx) {
				t.Errorf("%s %q is on sentence %d", q.what, text, idx)
			}
			seen++
		}
		rows.Close()
		if want := map[string]int{"gold": n / 7, "labels": n / 13}[q.what]; seen != want {
			t.Errorf("%d %s, want %d", seen, q.what, want)
		}
	}
}
