package importer_test

import (
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/importer"
)

// These tests read the public data sets in ../shared/data when they are
// there; the core tests use the copies in testdata.

func TestSharedTofuEval(t *testing.T) {
	dir := sharedData(t)
	files := []string{
		filepath.Join(dir, "tofueval", "meetingbank_factual_eval_test.csv"),
		filepath.Join(dir, "tofueval", "meetingbank_factual_eval_dev.csv"),
		filepath.Join(dir, "tofueval", "meetingbank_completeness_final.csv"),
		filepath.Join(dir, "tofueval", "document_ids_dev_test_split.json"),
		filepath.Join(dir, "madisse", "MeetingBank_ambiguity_annotated.json"),
	}
	// MADISSE holds the test split's transcripts only: the dev documents
	// are left out on purpose.
	res, err := importer.ParseFiles("", files, importer.Options{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	logResult(t, res)
	checkResolved(t, res.Documents)
	// The test split: 15 documents, 45 topics, 267 summaries, 777
	// sentences; the dev documents have no transcript.
	topics := map[string]bool{}
	for _, d := range res.Documents {
		for _, s := range d.Summaries {
			topics[d.ExternalID+"|"+s.Topic] = true
		}
	}
	got := count(res.Documents)
	if got.docs != 15 || len(topics) != 45 || got.summaries != 267 || got.sentences != 777 {
		t.Errorf("%d documents, %d topics, %d summaries, %d sentences; want 15, 45, 267, 777", got.docs, len(topics), got.summaries, got.sentences)
	}
	if got.gold != 777 || got.ambiguity != 777 {
		t.Errorf("%d gold labels and %d ambiguity labels, want 777 of each", got.gold, got.ambiguity)
	}
	dev := res.Stats[1]
	if dev.Records != 1624 || dev.Documents != 0 || dev.Skipped != 1624 {
		t.Errorf("dev stats %v", dev)
	}
	if m := res.Stats[4]; m.Records != 770 || m.Documents != 15 || m.AmbiguityLabels != 770 {
		t.Errorf("madisse stats %v", m)
	}
}

func TestSharedMADISSE(t *testing.T) {
	dir := sharedData(t)
	for _, name := range []string{"MeetingBank_ambiguity_annotated.json", "sample_data.json"} {
		t.Run(name, func(t *testing.T) {
			res, err := importer.ParseFiles("", []string{filepath.Join(dir, "madisse", name)}, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			logResult(t, res)
			checkResolved(t, res.Documents)
			if name == "MeetingBank_ambiguity_annotated.json" {
				got := count(res.Documents)
				ambiguous := 0
				for _, d := range res.Documents {
					for _, s := range d.Summaries {
						if g := s.Sentences[0].Gold; *g.Ambiguous {
							ambiguous++
						}
					}
				}
				if got.docs != 15 || got.summaries != 770 || got.ambiguity != 770 || ambiguous != 131 {
					t.Errorf("%+v, %d ambiguous; want 15 documents, 770 one-sentence summaries, 131 ambiguous", got, ambiguous)
				}
			}
		})
	}
}

func TestSharedSummEdits(t *testing.T) {
	dir := sharedData(t)
	want := map[string]struct{ docs, records int }{
		"ectsum": {22, 668}, "news": {25, 819}, "podcast": {21, 500}, "qmsumm": {16, 431}, "samsum": {22, 664},
	}
	for area, w := range want {
		t.Run(area, func(t *testing.T) {
			res, err := importer.ParseFiles("", []string{filepath.Join(dir, "summedits", "summedits_"+area+".json")}, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			logResult(t, res)
			checkResolved(t, res.Documents)
			got := count(res.Documents)
			if got.docs != w.docs || got.summaries != w.records || got.gold != w.records {
				t.Errorf("%+v, want %d documents and %d summaries with gold labels", got, w.docs, w.records)
			}
			for _, d := range res.Documents {
				if d.Domain != area {
					t.Errorf("document %s has domain %q", d.ExternalID, d.Domain)
				}
			}
		})
	}
}

// logResult logs what a parse produced, for the record.
func logResult(t *testing.T, res *importer.Result) {
	t.Helper()
	t.Logf("format %s, error taxonomy %q, %d documents", res.Format, res.ErrorTaxonomy, len(res.Documents))
	for _, s := range res.Stats {
		t.Logf("  %v", s)
	}
	if len(res.Warnings) > 0 {
		t.Logf("  warnings:\n    %s", strings.Join(res.Warnings, "\n    "))
	}
}
