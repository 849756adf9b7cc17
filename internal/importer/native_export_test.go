package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/domain"
)

// Gold exports (docs/export.md) import as they are: a header line, one
// record per summary, provenance fields.

const exportHead = `{"kind":"export","export_version":1,"what":"gold","format":"jsonl","project":"p","exported_at":"2026-01-04T08:00:00Z","schema_version":1}`

func TestNativeReadsAGoldExport(t *testing.T) {
	in := strings.Join([]string{
		exportHead,
		`{"id":"d1","sentences":["A."],"summaries":[{"id":"s1","sentences":[{"text":"A.","gold":{"label":"faithful","provenance":"majority","decided_by":"lea","decided_at":"2026-01-03T12:00:00Z","note":"ok"}}]}],"key_facts":[{"text":"A."}]}`,
		`{"id":"d2","sentences":["B."],"summaries":[{"id":"s3","sentences":[{"text":"B."}]}]}`,
		`{"id":"d1","summaries":[{"id":"s2","sentences":[{"text":"A again.","gold":{"label":"","provenance":"unresolved"}}],"scores":{"faithfulness":null,"completeness":0.5,"conciseness":1}}]}`,
	}, "\n")
	res, err := parseString(t, "", "gold.jsonl", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 2 {
		t.Fatalf("%d documents, want d1 (with both summaries) and d2", len(res.Documents))
	}
	d1 := res.Documents[0]
	if d1.ExternalID != "d1" || len(d1.Summaries) != 2 || d1.Summaries[1].ExternalID != "s2" || len(d1.KeyFacts) != 1 {
		t.Fatalf("d1: %+v", d1)
	}
	g := d1.Summaries[0].Sentences[0].Gold
	if g.Provenance != domain.ProvMajority || g.DecidedBy != "lea" || g.DecidedAt != "2026-01-03T12:00:00.000Z" || g.Note != "ok" {
		t.Errorf("gold %+v", g)
	}
	if g := d1.Summaries[1].Sentences[0].Gold; g.Provenance != domain.ProvUnresolved || g.Label != "" {
		t.Errorf("unresolved gold %+v", g)
	}
}

const (
	headV2 = `{"kind":"export","export_version":2,"what":"gold","format":"jsonl","project":"p","exported_at":"2026-01-04T08:00:00Z","schema_version":3}`
	doc1   = `{"id":"d1","sentences":["A."],"summaries":[{"id":"s1","sentences":[{"text":"A."}]}]}`
)

// TestNativeReadsACompleteExport: an export of version 2 ends with a record
// counting the records before it.
func TestNativeReadsACompleteExport(t *testing.T) {
	res, err := parseString(t, "", "gold.jsonl", headV2+"\n"+doc1+"\n"+`{"kind":"end","records":1}`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 1 {
		t.Fatalf("%d documents, want 1", len(res.Documents))
	}
}

func TestNativeGoldExportErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"unknown provenance", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"label":"faithful","provenance":"voted"}}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].gold.provenance: "voted" is not one of imported, unanimous, majority, adjudicated, unresolved`},
		{"unresolved with a label", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"label":"faithful","provenance":"unresolved"}}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].gold.label: unresolved gold has no label`},
		{"bad time", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"label":"faithful","decided_at":"yesterday"}}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].gold.decided_at: "yesterday" is not a time`},
		{"a repeated id with content is still a duplicate", `{"id":"d","sentences":["A."]}` + "\n" + `{"id":"d","sentences":["B."]}`,
			`x.jsonl:2: id: document id "d" is used twice (first at x.jsonl:1)`},
		{"a continuation needs an earlier document", `{"id":"d","summaries":[{"id":"s","text":"A."}]}`,
			`x.jsonl:1: text: a prose document needs text or sentences`},
		{"a continuation's summary is located on its own line", `{"id":"d","sentences":["A."]}` + "\n" + `{"id":"d","summaries":[{"id":"s"}]}`,
			`x.jsonl:2: summaries[0].text: a summary needs text or sentences`},
		{"a version 2 export cut short", headV2 + "\n" + doc1,
			`x.jsonl:2: the export has no end record: the file was cut short`},
		{"an end record with another count", headV2 + "\n" + doc1 + "\n" + `{"kind":"end","records":2}`,
			`x.jsonl:3: records: the export says it has 2 records, but 1 came before this line`},
		{"a record after the end", headV2 + "\n" + doc1 + "\n" + `{"kind":"end","records":1}` + "\n" + doc1,
			`x.jsonl:4: a record after the export's end record`},
		{"a scores export", `{"kind":"export","what":"scores","exported_at":"2026-01-04T08:00:00Z"}`,
			`x.jsonl:1: what: this is a "scores" export; only gold and raw exports can be imported`},
		{"a raw export's header later in the file", `{"id":"d","sentences":["A."]}` + "\n" + `{"kind":"export","what":"raw"}`,
			`x.jsonl:2: what: a raw export's header must be the first record of its file`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseString(t, "native", "x.jsonl", c.in)
			if err == nil {
				t.Fatal("accepted")
			}
			found := false
			for _, e := range errorList(t, err) {
				found = found || strings.HasPrefix(e.Error(), c.want)
			}
			if !found {
				t.Errorf("errors %v, want one starting %q", err, c.want)
			}
		})
	}
}
