package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/importer"
)

const mediasumFactual = "doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type\n" +
	"NPR-1,501,Quds Force,model_A,1,The Quds Force is an elite branch.,yes,,\n" +
	"NPR-1,501,Quds Force,model_A,2,It has thousands of members.,no,Hundreds not thousands.,Extrinsic Information\n" +
	"CNN-2,502,Storm,model_B,1,A storm hit the coast.,yes,,\n"

// TestTofuEvalMediaSumTranscripts imports TofuEval MediaSum rows with the
// transcripts in a separate {doc_id, turns} file (one as strings, one as
// objects), and the same with native documents instead; annotation_id and
// the domain survive; an empty key_points cell gives no key facts.
func TestTofuEvalMediaSumTranscripts(t *testing.T) {
	transcripts := `{"doc_id":"NPR-1","turns":["MICHELE NORRIS, host: Tell us about the Quds Force.","Mr. KARIM SADJADPOUR: It is an elite branch, hundreds not thousands."]}` + "\n" +
		`{"doc_id":"CNN-2","turns":[{"speaker":"ANCHOR","text":"A storm hit the coast today."}]}` + "\n"
	keyPoints := "doc_id,annotation_id,topic,key_points\nNPR-1,501,Quds Force,\"['1. The Quds Force is elite.']\"\nCNN-2,502,Storm,\n"
	res, err := importer.Parse("", []importer.File{
		{Name: "mediasum_factual_eval_test.csv", R: strings.NewReader(mediasumFactual)},
		{Name: "mediasum_completeness.csv", R: strings.NewReader(keyPoints)},
		{Name: "transcripts.jsonl", R: strings.NewReader(transcripts)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != importer.FormatTofuEval || len(res.Documents) != 2 {
		t.Fatalf("format %s, %d documents", res.Format, len(res.Documents))
	}
	npr, cnn := res.Documents[0], res.Documents[1]
	if npr.AnnotationID != "501" || npr.Domain != "mediasum" || len(npr.Turns) != 2 || npr.Turns[1].Speaker != "Mr. KARIM SADJADPOUR" || len(npr.KeyFacts) != 1 {
		t.Errorf("NPR-1: %+v", npr)
	}
	if cnn.AnnotationID != "502" || len(cnn.Turns) != 1 || cnn.Turns[0].Speaker != "ANCHOR" || len(cnn.KeyFacts) != 0 {
		t.Errorf("CNN-2: %+v", cnn)
	}

	native := `{"id":"NPR-1","kind":"dialogue","turns":[{"speaker":"HOST","text":"Tell us."}]}` + "\n" +
		`{"id":"CNN-2","text":"A storm hit the coast today."}` + "\n"
	res, err = importer.Parse("", []importer.File{
		{Name: "mediasum_factual_eval_test.csv", R: strings.NewReader(mediasumFactual)},
		{Name: "docs.jsonl", R: strings.NewReader(native)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 2 || res.Documents[1].Kind != "prose" || len(res.Documents[1].Sentences) != 1 {
		t.Fatalf("with native documents: %+v", res.Documents)
	}
}

func TestTofuEvalMissingTranscripts(t *testing.T) {
	cases := []struct {
		name  string
		files []importer.File
		want  string
	}{
		{"no transcripts at all", []importer.File{{Name: "mediasum_factual_eval_test.csv", R: strings.NewReader(mediasumFactual)}},
			`mediasum_factual_eval_test.csv: the TofuEval files carry no document text, and no transcripts were given for their 2 documents (NPR-1, CNN-2); give the transcripts as a JSON Lines file of {"doc_id"`},
		{"transcripts of other documents", []importer.File{{Name: "mediasum_factual_eval_test.csv", R: strings.NewReader(mediasumFactual)},
			{Name: "t.jsonl", R: strings.NewReader(`{"doc_id":"NPR-9","turns":["A: b"]}` + "\n")}},
			`mediasum_factual_eval_test.csv: none of the 2 documents has a transcript in the files given (t.jsonl), so nothing would be imported; missing: NPR-1, CNN-2`},
		{"a bad turn", []importer.File{{Name: "mediasum_factual_eval_test.csv", R: strings.NewReader(mediasumFactual)},
			{Name: "t.jsonl", R: strings.NewReader(`{"doc_id":"NPR-1","turns":[3]}` + "\n")}},
			`t.jsonl:1: turns[0]: a turn is a string "Speaker: text" or an object`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := importer.Parse("", c.files)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}
