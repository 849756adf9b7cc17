package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/importer"
)

// TestStrictInput checks what used to pass silently, in every format:
// bytes that are not UTF-8, a field given twice, a text that contradicts
// its own sentence split, and files with nothing to import. Each is an
// error naming the file, the line (or record) and the field.
func TestStrictInput(t *testing.T) {
	doc := func(summary string) string {
		return `{"id":"d","sentences":["A cat sat."],"summaries":[` + summary + `]}`
	}
	factualHeader := "doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type\n"
	cases := []struct {
		name, format, file, in, want string
	}{
		{"native: invalid UTF-8", "", "x.jsonl", doc(`{"id":"s","text":"A cat` + "\xff" + ` sat."}`),
			`x.jsonl:1: summaries[0].text: invalid UTF-8 (byte 0xff at offset`},
		{"native: a key twice", "", "x.jsonl", doc(`{"id":"s","text":"A cat sat.","text":"A dog sat."}`),
			`x.jsonl:1: summaries[0].text: the field is given twice in one object`},
		{"native: a key twice in a label", "", "x.jsonl", doc(`{"id":"s","sentences":[{"text":"A cat sat.","labels":[{"annotator":"w1","label":"faithful","label":"unfaithful"}]}]}`),
			`x.jsonl:1: summaries[0].sentences[0].labels[0].label: the field is given twice in one object`},
		{"native: summary text contradicts its sentences", "", "x.jsonl", doc(`{"id":"s","text":"A cat sat on the mat.","sentences":[{"text":"A dog sat on the mat."}]}`),
			`x.jsonl:1: summaries[0].text: does not match the sentences: the text reads "A cat sat on the mat.", the sentences "A dog sat on the mat."`},
		{"native: document text contradicts its sentences", "", "x.jsonl", `{"id":"d","text":"One. Two.","sentences":["One.","Three."]}`,
			`x.jsonl:1: text: does not match the sentences: the text reads "One. Two.", the sentences "One. Three."`},
		{"native: an empty file", "native", "x.jsonl", "\n  \n", `x.jsonl: the file is empty: nothing to import`},
		{"detected format: an empty file", "", "x.jsonl", " \n", `x.jsonl: the file is empty: nothing to import`},
		{"native: only a gold export's header", "native", "x.jsonl", `{"kind":"export","what":"gold"}`, `x.jsonl: no documents, labels or scales to import`},
		{"SummEdits: invalid UTF-8", "summedits", "summedits_news.json", `[{"id":"a","doc":"A cat` + "\xfe" + ` sat.","summary":"A cat sat.","label":1}]`,
			`summedits_news.json: record 1: doc: invalid UTF-8`},
		{"SummEdits: a key twice", "summedits", "summedits_news.json", `[{"id":"a","doc":"A cat sat.","summary":"A cat sat.","label":1,"label":0}]`,
			`summedits_news.json: record 1: label: the field is given twice in one object`},
		{"SummEdits: an empty array", "summedits", "summedits_news.json", `[]`, `summedits_news.json: the array holds no records: nothing to import`},
		{"SummEdits: an empty file", "summedits", "summedits_news.json", ``, `summedits_news.json: the file is empty: nothing to import`},
		{"MADISSE: a key twice", "madisse", "sample_data.json", `{"doc_id":"d","doc":"A.","claim":"A.","label":1,"label":0,"exp":"","type":""}`,
			`sample_data.json:1: label: the field is given twice in one object`},
		{"TofuEval: a column twice", "tofueval", "meetingbank_factual_eval_test.csv", strings.Replace(factualHeader, "exp", "topic", 1) + "d,1,t,m,1,A.,yes,,\n",
			`meetingbank_factual_eval_test.csv:1: topic: the column is given twice (columns 3 and 8)`},
		{"TofuEval: a header without rows", "tofueval", "meetingbank_factual_eval_test.csv", factualHeader,
			`meetingbank_factual_eval_test.csv:1: the file has a header and no rows: nothing to import`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := importer.Parse(c.format, []importer.File{{Name: c.file, R: strings.NewReader(c.in)}})
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("errors:\n%v\nwant one containing %q", err, c.want)
			}
		})
	}
}
