package demo_test

import (
	"bytes"
	"testing"

	"annotate/internal/demo"
	"annotate/internal/domain"
)

func TestDocuments(t *testing.T) {
	docs, err := demo.Documents()
	if err != nil {
		t.Fatal(err)
	}
	type counts struct {
		docs, topics, summaries, sentences, keyFacts, gold, unfaithful, ambiguityLabels, ambiguous int
	}
	var got counts
	models := map[string]bool{}
	topics := map[string]bool{}
	for _, d := range docs {
		got.docs++
		if d.Kind != domain.KindDialogue || len(d.Turns) == 0 {
			t.Errorf("document %s: kind %q with %d turns", d.ExternalID, d.Kind, len(d.Turns))
		}
		got.keyFacts += len(d.KeyFacts)
		for _, k := range d.KeyFacts {
			if k.Topic == "" {
				t.Errorf("document %s: key fact %q without topic", d.ExternalID, k.Text)
			}
		}
		for _, s := range d.Summaries {
			got.summaries++
			models[s.Model] = true
			topics[d.ExternalID+"|"+s.Topic] = true
			if got.summaries <= demo.CalibrationSummaries {
				// The calibration round's summaries come without gold.
				for _, sent := range s.Sentences {
					got.sentences++
					if sent.Gold != nil {
						t.Errorf("calibration summary %s has gold", s.ExternalID)
					}
				}
				continue
			}
			for _, sent := range s.Sentences {
				got.sentences++
				g := sent.Gold
				if g == nil || g.Label == "" {
					t.Errorf("summary %s: sentence without gold label", s.ExternalID)
					continue
				}
				got.gold++
				if g.Label == domain.LabelUnfaithful {
					got.unfaithful++
				}
				if g.Ambiguous != nil {
					got.ambiguityLabels++
					if *g.Ambiguous {
						got.ambiguous++
					}
				}
			}
		}
	}
	got.topics = len(topics)
	want := counts{docs: 3, topics: 9, summaries: 53, sentences: 154, keyFacts: 36, gold: 136, unfaithful: 29, ambiguityLabels: 136, ambiguous: 28}
	if got != want {
		t.Errorf("counts %+v\nwant   %+v", got, want)
	}
	for m := range models {
		switch m {
		case "model_A", "model_B", "model_C", "model_D", "model_E", "Model-Extra":
		default:
			t.Errorf("model name %q is not one of the anonymised names", m)
		}
	}
}

func TestCorpusIsACopy(t *testing.T) {
	a := demo.Corpus()
	if len(a) == 0 || !bytes.HasPrefix(a, []byte(`{"id":`)) {
		t.Fatalf("corpus starts %q", a[:min(20, len(a))])
	}
	a[0] = 'x'
	if demo.Corpus()[0] != '{' {
		t.Error("changing the returned corpus changed the embedded one")
	}
}
