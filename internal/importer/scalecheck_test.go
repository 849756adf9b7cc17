package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/importer"
)

// TestIdenticalScalesWarned: two scale columns holding the same value on
// every label are flagged at import; scales that differ somewhere are not.
func TestIdenticalScalesWarned(t *testing.T) {
	scales := `{"scales":[{"name":"support","level":"sentence","min":1,"max":3},{"name":"support_copy","level":"sentence","min":1,"max":3},{"name":"clarity","level":"sentence","min":1,"max":3}]}` + "\n"
	doc := `{"id":"d","text":"The council met. It voted.","summaries":[{"id":"s","sentences":[` +
		`{"text":"The council met.","labels":[{"annotator":"w1","label":"faithful","scores":{"support":3,"support_copy":3,"clarity":2}},{"annotator":"w2","label":"faithful","scores":{"support":2,"support_copy":2,"clarity":2}}]},` +
		`{"text":"It voted.","labels":[{"annotator":"w1","label":"faithful","scores":{"support":1,"support_copy":1,"clarity":3}}]}]}]}` + "\n"
	res, err := importer.Parse("", []importer.File{{Name: "d.jsonl", R: strings.NewReader(scales + doc)}})
	if err != nil {
		t.Fatal(err)
	}
	var warned string
	for _, w := range res.Warnings {
		if strings.Contains(w, "same value on every label") {
			warned = w
		}
	}
	if !strings.Contains(warned, "support and support_copy (3 labels)") || strings.Contains(warned, "clarity") {
		t.Fatalf("warnings: %q", res.Warnings)
	}
}
