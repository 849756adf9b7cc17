package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

// The fuzz targets keep their inputs small: the fuzzing engine slows to a
// crawl on inputs of tens of kilobytes. More seeds are in testdata/fuzz.

// checkOutcome asserts what every parse promises: documents or errors,
// never both, and resolved documents on success.
func checkOutcome(t *testing.T, res *importer.Result, err error) {
	t.Helper()
	if err != nil {
		if res != nil {
			t.Fatalf("got documents along with error %v", err)
		}
		if err.Error() == "" {
			t.Fatal("empty error message")
		}
		return
	}
	ids := map[string]bool{}
	for _, d := range res.Documents {
		if d.ExternalID == "" || ids[d.ExternalID] {
			t.Fatalf("document id %q empty or repeated", d.ExternalID)
		}
		ids[d.ExternalID] = true
		if d.Kind == domain.KindProse && len(d.Sentences) == 0 || d.Kind == domain.KindDialogue && len(d.Turns) == 0 {
			t.Fatalf("document %q (%s) has no units", d.ExternalID, d.Kind)
		}
		for _, s := range d.Summaries {
			if s.ExternalID == "" || len(s.Sentences) == 0 {
				t.Fatalf("summary %q has no id or no sentences", s.ExternalID)
			}
			for _, sent := range s.Sentences {
				if strings.TrimSpace(sent.Text) == "" {
					t.Fatalf("summary %q has an empty sentence", s.ExternalID)
				}
			}
		}
	}
}

// smallTranscripts is a MADISSE file with two records about one transcript,
// whose sentences appear in smallFactual.
const smallTranscripts = `{"doc":["Speaker 0: Item 12 is the bike lane.","Speaker 1: I move approval. It passes seven to two."],"summary":"The council approved the bike lane unanimously.","ambiguity":"0","category":"","sub-category":"","explanation":""}
{"doc":["Speaker 0: Item 12 is the bike lane.","Speaker 1: I move approval. It passes seven to two."],"summary":"The lane was approved.","ambiguity":"1","category":"context phenomena","sub-category":"Other context phenoma","explanation":"Approved by whom?"}
`

// smallFactual is a TofuEval factual CSV: one document with a transcript
// and two summaries, one document without.
const smallFactual = `doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type
D1,1,Bike lane,model_A,1,The council approved the bike lane unanimously.,no,"The vote was 7-2, not unanimous.",Contradiction
D1,1,Bike lane,model_A,2,The lane was approved.,yes,,
D1,1,Bike lane,model_B,1,The lane was approved.,yes,,
D2,2,Budget,model_A,1,No transcript for this one.,yes,,
`

// smallKeyPoints is a TofuEval completeness CSV for smallFactual.
const smallKeyPoints = `doc_id,annotation_id,topic,key_points
D1,1,Bike lane,"['1. The bike lane passed seven to two.', ""2. It's item 12.""]"
D2,2,Budget,"['1. There is no information about the budget.']"
`

func TestSmallFuzzSeeds(t *testing.T) {
	res, err := importer.ParseWith("", []importer.File{
		{Name: "meetingbank_factual_eval_test.csv", R: strings.NewReader(smallFactual)},
		{Name: "meetingbank_completeness_final.csv", R: strings.NewReader(smallKeyPoints)},
		{Name: "MeetingBank_ambiguity_annotated.json", R: strings.NewReader(smallTranscripts)},
	}, importer.Options{SkipDocuments: []string{"D2"}})
	if err != nil {
		t.Fatal(err)
	}
	got := count(res.Documents)
	if want := (totals{docs: 1, summaries: 2, sentences: 3, keyFacts: 2, gold: 3, ambiguity: 3, turns: 2}); got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
}

func FuzzNative(f *testing.F) {
	f.Add([]byte(validLine(1) + "\n" + validLine(2)))
	f.Add([]byte(`{"id":"d","kind":"dialogue","text":"A: hi\nB: ho","summaries":[{"id":"s","sentences":[{"text":"x","gold":{"ambiguity_type":"Vagueness"}}]}]}`))
	f.Add([]byte(`{"id":"d","text":"T.","summaries":[{"id":"s","text":"A.","gold":{"label":"unfaithful","error_types":["OutE"]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := importer.Parse("native", []importer.File{{Name: "f.jsonl", R: strings.NewReader(string(data))}})
		checkOutcome(t, res, err)
	})
}

func FuzzDetect(f *testing.F) {
	f.Add([]byte(validLine(1)))
	f.Add([]byte(`[{"id":"a","doc":"D.","summary":"S.","label":1}]`))
	f.Add([]byte(smallTranscripts))
	f.Add([]byte(smallKeyPoints))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := importer.Parse("", []importer.File{{Name: "summedits_x.json", R: strings.NewReader(string(data))}})
		checkOutcome(t, res, err)
	})
}

func FuzzTofuEvalCSV(f *testing.F) {
	f.Add([]byte(smallFactual))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := importer.Parse("tofueval", []importer.File{
			{Name: "meetingbank_factual_eval_test.csv", R: strings.NewReader(string(data))},
			{Name: "meetingbank_completeness_final.csv", R: strings.NewReader(smallKeyPoints)},
			{Name: "MeetingBank_ambiguity_annotated.json", R: strings.NewReader(smallTranscripts)},
		})
		checkOutcome(t, res, err)
	})
}

func FuzzKeyPointsCSV(f *testing.F) {
	f.Add([]byte(smallKeyPoints))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := importer.Parse("tofueval", []importer.File{
			{Name: "meetingbank_factual_eval_test.csv", R: strings.NewReader(smallFactual)},
			{Name: "k.csv", R: strings.NewReader(string(data))},
			{Name: "MeetingBank_ambiguity_annotated.json", R: strings.NewReader(smallTranscripts)},
		})
		checkOutcome(t, res, err)
	})
}

func FuzzMADISSE(f *testing.F) {
	f.Add([]byte(smallTranscripts))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := importer.Parse("madisse", []importer.File{{Name: "m.json", R: strings.NewReader(string(data))}})
		checkOutcome(t, res, err)
	})
}

func FuzzSummEdits(f *testing.F) {
	f.Add([]byte(`[{"id":"a","doc":"A: x . B: y","summary":"S.","label":"1","edit_types":[]},{"id":"b","doc":"D.","summary":"T.","label":0}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := importer.Parse("summedits", []importer.File{{Name: "summedits_news.json", R: strings.NewReader(string(data))}})
		checkOutcome(t, res, err)
	})
}
