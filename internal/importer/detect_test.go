package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/importer"
)

func TestDetectRoles(t *testing.T) {
	tests := []struct {
		file, role string
	}{
		{"tofueval/meetingbank_factual_eval_test.csv", "tofueval factual labels"},
		{"tofueval/meetingbank_completeness_final.csv", "tofueval key points"},
		{"madisse/MeetingBank_ambiguity_annotated.json", "madisse ambiguity labels"},
		{"madisse/sample_data.json", "madisse sample claims"},
		{"summedits/summedits_news.json", "summedits"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			res, err := importer.ParseFiles("", fixtures(tt.file), importer.Options{})
			if tt.role == "tofueval factual labels" || tt.role == "tofueval key points" {
				// Alone these cannot be imported, but the message shows
				// they were recognised.
				if err == nil || !strings.Contains(err.Error(), "TofuEval") {
					t.Errorf("got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats[0].Role != tt.role {
				t.Errorf("role %q, want %q", res.Stats[0].Role, tt.role)
			}
		})
	}
}

func TestDetectRejects(t *testing.T) {
	tests := []struct {
		name   string
		format string
		files  map[string]string
		want   string
	}{
		{"unknown content", "", map[string]string{"x.txt": "hello"}, "x.txt: cannot tell the format from the content"},
		{"mixed formats", "", map[string]string{"a.jsonl": `{"id":"d","text":"T."}`, "summedits_x.json": `[]`}, "the files are in different formats"},
		{"wrong explicit format", "madisse", map[string]string{"a.jsonl": `{"id":"d","text":"T."}`}, "a.jsonl is not in the madisse format"},
		{"unknown format name", "csv", map[string]string{"a.jsonl": `{}`}, `unknown import format "csv"`},
		{"sample with tofueval", "tofueval", map[string]string{"s.json": `{"doc_id":"x","doc":"d","claim":"c","label":"1"}`}, "cannot join a TofuEval import"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []importer.File
			for name, content := range tt.files {
				files = append(files, importer.File{Name: name, R: strings.NewReader(content)})
			}
			_, err := importer.Parse(tt.format, files)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := importer.Parse("", nil); err == nil {
		t.Error("no files accepted")
	}
}

func TestDetectNativeWithLongFirstLine(t *testing.T) {
	long := `{"id":"d","text":"` + strings.Repeat("Word. ", 30000) + `"}`
	res, err := parseString(t, "", "big.jsonl", "\ufeff"+long+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != importer.FormatNative || len(res.Documents[0].Sentences) != 30000 {
		t.Errorf("format %q, %d sentences", res.Format, len(res.Documents[0].Sentences))
	}
}

func TestProgress(t *testing.T) {
	var out strings.Builder
	_, err := importer.ParseWith("", []importer.File{{Name: "a.jsonl", R: strings.NewReader(validLine(1)), Size: int64(len(validLine(1)))}}, importer.Options{Progress: &out})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "a.jsonl") {
		t.Errorf("progress output %q does not name the file", out.String())
	}
}
