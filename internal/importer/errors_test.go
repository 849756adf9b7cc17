package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"annotate/internal/importer"
)

func TestErrorString(t *testing.T) {
	tests := []struct {
		name string
		err  importer.Error
		want string
	}{
		{"line and field", importer.Error{File: "data.jsonl", Line: 7, Field: "summaries[0].sentences[2].gold.label", Message: `"maybe" is not one of faithful, unfaithful, borderline`},
			`data.jsonl:7: summaries[0].sentences[2].gold.label: "maybe" is not one of faithful, unfaithful, borderline`},
		{"record", importer.Error{File: "summedits_news.json", Record: 12, Field: "label", Message: "2 is not 0 or 1"},
			"summedits_news.json: record 12: label: 2 is not 0 or 1"},
		{"line only", importer.Error{File: "a.jsonl", Line: 3, Message: "invalid JSON"}, "a.jsonl:3: invalid JSON"},
		{"message only", importer.Error{Message: "no transcripts"}, "no transcripts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestErrorsListsTwenty(t *testing.T) {
	var es importer.Errors
	for i := 1; i <= 25; i++ {
		es = append(es, &importer.Error{File: "f", Line: i, Message: "bad"})
	}
	got := es.Error()
	lines := strings.Split(got, "\n")
	if len(lines) != 21 {
		t.Fatalf("got %d lines, want 20 problems and a count:\n%s", len(lines), got)
	}
	if want := "... and 5 more"; lines[20] != want {
		t.Errorf("last line %q, want %q", lines[20], want)
	}
	if want := fmt.Sprintf("f:%d: bad", 20); lines[19] != want {
		t.Errorf("line 20 %q, want %q", lines[19], want)
	}
}
