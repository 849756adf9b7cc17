package importer_test

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

func TestTofuEvalFixture(t *testing.T) {
	files := fixtures(
		"tofueval/meetingbank_factual_eval_test.csv",
		"tofueval/meetingbank_factual_eval_dev.csv",
		"tofueval/meetingbank_completeness_final.csv",
		"madisse/MeetingBank_ambiguity_annotated.json",
	)
	// The dev document has no transcript: refused unless named.
	_, err := importer.ParseFiles("", files, importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "meetingbank_factual_eval_dev.csv: 1 of its documents has no transcript") ||
		!strings.Contains(err.Error(), "LongBeachCC_10172017_17-0944") || !strings.Contains(err.Error(), "--skip-documents") {
		t.Fatalf("a document without a transcript: %v", err)
	}
	res, err := importer.ParseFiles("", files, importer.Options{SkipDocuments: []string{"LongBeachCC_10172017_17-0944"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != importer.FormatTofuEval || res.ErrorTaxonomy != "tofueval" {
		t.Errorf("format %q taxonomy %q", res.Format, res.ErrorTaxonomy)
	}
	checkResolved(t, res.Documents)
	for _, s := range res.Stats {
		t.Log(s)
	}
	for _, w := range res.Warnings {
		t.Log("warning:", w)
	}
	// One test document with its 18 summaries (3 topics x 6 models) and
	// 32 sentences; the dev document has no transcript.
	got := count(res.Documents)
	want := totals{docs: 1, summaries: 18, sentences: 32, keyFacts: 8, gold: 32, ambiguity: 7, turns: 22}
	if got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	doc := res.Documents[0]
	if doc.ExternalID != "LongBeachCC_04222014_14-0307" || doc.Kind != domain.KindDialogue || doc.Domain != "meetingbank" {
		t.Errorf("document %q kind %q domain %q", doc.ExternalID, doc.Kind, doc.Domain)
	}
	if doc.Turns[0].Speaker != "Speaker 0" || strings.HasPrefix(doc.Turns[0].Text, "Speaker") {
		t.Errorf("turn not split into speaker and text: %+v", doc.Turns[0])
	}
	for _, k := range doc.KeyFacts {
		if k.Topic == "" || k.Category != "" || k.Text[0] >= '0' && k.Text[0] <= '9' {
			t.Errorf("key fact %+v: want a topic, no category and no numbering", k)
		}
	}
	for _, s := range doc.Summaries {
		if s.Model == "" || strings.Contains(s.ExternalID, s.Model) {
			t.Errorf("summary %q: model %q must be kept apart from the id", s.ExternalID, s.Model)
		}
		if s.ExternalID != importer.SummaryID(doc.ExternalID, s.Topic, s.Model) {
			t.Errorf("summary id %q is not SummaryID", s.ExternalID)
		}
	}
	// The first summary's sentences, in sent_idx order, with labels.
	first := doc.Summaries[0]
	if first.Topic != "Election postponement" || first.Model != "model_A" {
		t.Errorf("first summary: topic %q model %q", first.Topic, first.Model)
	}
	var unfaithful, typed int
	for _, s := range doc.Summaries {
		for _, sent := range s.Sentences {
			g := sent.Gold
			if g.Label == domain.LabelUnfaithful {
				unfaithful++
				if len(g.ErrorTypes) == 0 || g.Explanation == "" {
					t.Errorf("unfaithful sentence %q lacks error types or explanation", sent.Text)
				}
			}
			if g.AmbiguityType != "" {
				typed++
			}
		}
	}
	if unfaithful != 2 || typed != 4 {
		t.Errorf("%d unfaithful sentences and %d with an ambiguity type, want 2 and 4", unfaithful, typed)
	}
	stats := map[string]importer.FileStats{}
	for _, s := range res.Stats {
		stats[s.File[strings.LastIndex(s.File, "/")+1:]] = s
	}
	if s := stats["meetingbank_factual_eval_dev.csv"]; s.Records != 7 || s.Skipped != 7 || s.Documents != 0 {
		t.Errorf("dev stats %v", s)
	}
	if s := stats["meetingbank_completeness_final.csv"]; s.Records != 4 || s.KeyFacts != 8 || s.Skipped != 1 {
		t.Errorf("key points stats %v", s)
	}
	if s := stats["MeetingBank_ambiguity_annotated.json"]; s.Records != 7 || s.Documents != 1 || s.AmbiguityLabels != 7 {
		t.Errorf("madisse stats %v", s)
	}
	wantWarnings := []string{
		"meetingbank_factual_eval_dev.csv: dropped 1 row repeating an earlier row word for word",
		"meetingbank_factual_eval_dev.csv: skipped 1 document (2 summaries, 6 sentences) without a transcript in testdata/madisse/MeetingBank_ambiguity_annotated.json: LongBeachCC_10172017_17-0944",
		"meetingbank_completeness_final.csv: skipped the key facts of 1 document (1 topic) that are not imported",
	}
	all := strings.Join(res.Warnings, "\n")
	for _, w := range wantWarnings {
		if !strings.Contains(all, w) {
			t.Errorf("missing warning %q in\n%s", w, all)
		}
	}
}

func TestTofuEvalNeedsTranscripts(t *testing.T) {
	_, err := importer.ParseFiles("tofueval", fixtures("tofueval/meetingbank_factual_eval_test.csv"), importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "MeetingBank_ambiguity_annotated.json") {
		t.Errorf("got %v, want an error asking for the MADISSE transcripts", err)
	}
	_, err = importer.ParseFiles("tofueval", fixtures("tofueval/meetingbank_completeness_final.csv", "madisse/MeetingBank_ambiguity_annotated.json"), importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "meetingbank_factual_eval") {
		t.Errorf("got %v, want an error asking for the factual CSV", err)
	}
}

func TestTofuEvalRowErrors(t *testing.T) {
	header := "doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type\n"
	tests := []struct {
		name string
		rows string
		want string
	}{
		{"label", "D,1,T,m,1,A sentence.,maybe,,\n", `f.csv:2: sent_label: "maybe" is not one of yes, no`},
		{"index", "D,1,T,m,x,A sentence.,yes,,\n", `f.csv:2: sent_idx: "x" is not a sentence number (1, 2, ...)`},
		{"type", "D,1,T,m,1,A sentence.,no,why,\"Extrinsic Information, Wrong Number\"\n", `f.csv:2: type: "Wrong Number" is not a TofuEval error type`},
		{"type on yes", "D,1,T,m,1,A sentence.,yes,,Contradiction\n", "f.csv:2: type: error types given for a sentence labelled yes"},
		{"empty sentence", "D,1,T,m,1,,yes,,\n", "f.csv:2: summ_sent: empty"},
		{"field count", "D,1,T,m,1,A sentence.,yes\n", "f.csv:2: invalid CSV: wrong number of fields"},
		{"quote", "D,1,T,m,1,\"A \"sentence.,yes,,\n", `f.csv:2: invalid CSV: extraneous or missing " in quoted-field`},
		{"conflicting duplicate", "D,1,T,m,1,A sentence.,yes,,\nD,1,T,m,1,Another sentence.,yes,,\n", "f.csv:3: sent_idx: sentence 1 of this summary is already on line 2, with a different text or label"},
		{"multi-line cell keeps the start line", "D,1,T,m,1,\"A\nsentence.\",yes,,\nD,1,T,m,2,B.,maybe,,\n", `f.csv:4: sent_label: "maybe"`},
	}
	madisse := strings.NewReader(`{"doc":["Speaker 0: A sentence."],"summary":"A sentence.","ambiguity":"0","category":"","sub-category":"","explanation":""}` + "\n")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			madisse.Seek(0, 0)
			_, err := importer.Parse("", []importer.File{
				{Name: "f.csv", R: strings.NewReader(header + tt.rows)},
				{Name: "m.json", R: madisse},
			})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
		})
	}
	t.Run("missing column", func(t *testing.T) {
		_, err := importer.Parse("tofueval", []importer.File{{Name: "f.csv", R: strings.NewReader("doc_id,topic,summ_sent,sent_label\n")}})
		if want := "f.csv:1: missing column model_name, sent_idx"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %s", err, want)
		}
	})
}

func TestKeyPointsErrors(t *testing.T) {
	factual := "doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type\nD,1,T,m,1,A sentence.,yes,,\n"
	madisse := `{"doc":["Speaker 0: A sentence."],"summary":"A sentence.","ambiguity":"0","category":"","sub-category":"","explanation":""}` + "\n"
	keyPoints := "doc_id,annotation_id,topic,key_points\nD,1,T,\"['1. Fine.', 2]\"\n"
	_, err := importer.Parse("", []importer.File{
		{Name: "f.csv", R: strings.NewReader(factual)},
		{Name: "k.csv", R: strings.NewReader(keyPoints)},
		{Name: "m.json", R: strings.NewReader(madisse)},
	})
	if want := "k.csv:2: key_points: Python list at offset 13: expected a string literal"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestTofuEvalColumnsRequired: a released TofuEval file with its type (or
// exp) column cut off is refused, naming the column and how to accept it;
// declared partial, it imports, the explanations or error types left out.
func TestTofuEvalColumnsRequired(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "tofueval", "sent_idx_gaps.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, drop := range []string{"type", "exp"} {
		col := slices.Index(rows[0], drop)
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		for _, r := range rows {
			w.Write(slices.Delete(slices.Clone(r), col, col+1))
		}
		w.Flush()
		transcript := `{"id":"DenverCityCouncil_08292016_16-0553","kind":"dialogue","turns":[{"speaker":"Speaker 0","text":"The vote."}]}` + "\n"
		files := func() []importer.File {
			return []importer.File{{Name: "cut.csv", R: bytes.NewReader(b.Bytes())}, {Name: "t.jsonl", R: strings.NewReader(transcript)}}
		}
		_, err := importer.ParseWith(importer.FormatTofuEval, files(), importer.Options{})
		if err == nil || !strings.Contains(err.Error(), "cut.csv:1: missing column "+drop+" (if the file leaves these out on purpose, import it as partial") {
			t.Errorf("without %s: %v", drop, err)
		}
		res, err := importer.ParseWith(importer.FormatTofuEval, files(), importer.Options{Partial: true})
		if err != nil {
			t.Fatalf("without %s, declared partial: %v", drop, err)
		}
		if n := len(res.Documents[0].Summaries[0].Sentences); n != 3 {
			t.Errorf("without %s, declared partial: %d sentences", drop, n)
		}
	}
}
