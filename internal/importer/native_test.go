package importer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

// docExample extracts the native example from docs/import-format.md, so
// that the documentation cannot drift from what the importer accepts.
func docExample(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "import-format.md"))
	if err != nil {
		t.Fatalf("reading the format documentation: %v", err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- example:start -->")
	body, _, ok2 := strings.Cut(rest, "<!-- example:end -->")
	if !ok || !ok2 {
		t.Fatal("example markers not found in docs/import-format.md")
	}
	body = strings.TrimSpace(body)
	body = strings.TrimPrefix(body, "```jsonl")
	body = strings.TrimSuffix(body, "```")
	return strings.TrimSpace(body) + "\n"
}

func TestNativeDocExample(t *testing.T) {
	res, err := parseString(t, "", "example.jsonl", docExample(t))
	if err != nil {
		t.Fatalf("the documented example does not parse:\n%v", err)
	}
	if res.Format != importer.FormatNative {
		t.Errorf("format %q, want native", res.Format)
	}
	if res.ErrorTaxonomy != "tofueval" {
		t.Errorf("error taxonomy %q, want tofueval (from the contradiction error type)", res.ErrorTaxonomy)
	}
	checkResolved(t, res.Documents)
	got := count(res.Documents)
	want := totals{docs: 3, summaries: 5, sentences: 9, keyFacts: 3, gold: 8, ambiguity: 2, turns: 3}
	if got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	news := res.Documents[0]
	if len(news.Sentences) != 3 || news.Sentences[1] != "Dr. Alvarez, the harbour master, said repairs would start in May." {
		t.Errorf("news text split into %q", news.Sentences)
	}
	s1 := news.Summaries[0]
	if len(s1.Sentences) != 2 || s1.Gold == nil || s1.Gold.Label != domain.LabelUnfaithful {
		t.Errorf("summary split from text with summary-level gold: %+v", s1)
	}
	amb := news.Summaries[1].Sentences[1].Gold
	if amb.AmbiguityType != "hypernymy" || amb.Ambiguous == nil || !*amb.Ambiguous {
		t.Errorf("ambiguity type name not normalised to its code: %+v", amb)
	}
	meeting := res.Documents[1]
	if meeting.Kind != domain.KindDialogue || meeting.Turns[2].Speaker != "Speaker 0" {
		t.Errorf("dialogue not kept: %+v", meeting.Turns)
	}
	if got := meeting.Summaries[0].Sentences[0].Gold.ErrorTypes; !slices.Equal(got, []string{"contradiction"}) {
		t.Errorf("error types %q", got)
	}
	zh := res.Documents[2]
	if zh.Kind != domain.KindProse || len(zh.Sentences) != 2 || zh.Summaries[0].Language != "zh" {
		t.Errorf("chinese document: kind %q, %d sentences, summary language %q", zh.Kind, len(zh.Sentences), zh.Summaries[0].Language)
	}
	if zh.Source != "example.jsonl:3" {
		t.Errorf("source %q", zh.Source)
	}
}

// validLine is a minimal native record.
func validLine(i int) string {
	return fmt.Sprintf(`{"id":"d%d","text":"One sentence. Two sentences.","summaries":[{"id":"s%d","text":"One."}]}`, i, i)
}

func TestNativeBrokenLineSeven(t *testing.T) {
	var lines []string
	for i := 1; i <= 9; i++ {
		lines = append(lines, validLine(i))
	}
	lines[6] = `{"id":"d7","text":"Text.","summaries":[{"id":"s7","sentences":[{"text":"A."},{"text":"B."},{"text":"C.","gold":{"label":"maybe"}}]}]}`
	res, err := parseString(t, "native", "data.jsonl", strings.Join(lines, "\n"))
	if res != nil {
		t.Errorf("got documents despite an error")
	}
	es := errorList(t, err)
	want := `data.jsonl:7: summaries[0].sentences[2].gold.label: "maybe" is not one of faithful, unfaithful, borderline`
	if len(es) != 1 || es[0].Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	if es[0].Line != 7 || es[0].Field != "summaries[0].sentences[2].gold.label" {
		t.Errorf("located at line %d field %q", es[0].Line, es[0].Field)
	}
}

func TestNativeErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{
			name:  "unknown field deep inside",
			input: `{"id":"d","text":"T.","summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"label":"faithful","confidence":3}}]}]}`,
			want:  []string{"x.jsonl:1: summaries[0].sentences[0].gold.confidence: unknown field"},
		},
		{
			name:  "unknown top-level field",
			input: `{"id":"d","text":"T.","author":"me"}`,
			want:  []string{"x.jsonl:1: author: unknown field"},
		},
		{
			name:  "field Source is not settable",
			input: `{"id":"d","text":"T.","Source":"x"}`,
			want:  []string{"x.jsonl:1: Source: unknown field"},
		},
		{
			name:  "wrong type",
			input: `{"id":"d","text":"T.","summaries":[{"id":"s","text":"A.","edit_types":"swap"}]}`,
			want:  []string{`x.jsonl:1: summaries[0].edit_types: expected an array, got string "swap"`},
		},
		{
			name:  "not an object",
			input: `["d"]`,
			want:  []string{"x.jsonl:1: expected an object, got an array"},
		},
		{
			name:  "syntax",
			input: "\n\n" + `{"id":"d",}`,
			want:  []string{"x.jsonl:3: invalid JSON at column 11: invalid character '}' looking for beginning of object key string"},
		},
		{
			name:  "truncated",
			input: `{"id":"d","text":"T.`,
			want:  []string{"x.jsonl:1: invalid JSON: the line ends inside a value"},
		},
		{
			name:  "two values on a line",
			input: `{"id":"d","text":"T."} {"id":"e","text":"U."}`,
			want:  []string{"x.jsonl:1: more than one JSON value on the line; each line holds one document"},
		},
		{
			name:  "missing ids and text",
			input: `{"summaries":[{"text":"A."}]}`,
			want: []string{
				"x.jsonl:1: id: missing document id",
				"x.jsonl:1: text: a prose document needs text or sentences",
				"x.jsonl:1: summaries[0].id: missing summary id",
			},
		},
		{
			name:  "duplicate ids",
			input: validLine(1) + "\n" + validLine(1),
			want: []string{
				`x.jsonl:2: id: document id "d1" is used twice (first at x.jsonl:1)`,
				`x.jsonl:2: summaries[0].id: summary id "s1" is used twice (also in document "d1"); summary ids must be unique across the import`,
			},
		},
		{
			name:  "bad kind",
			input: `{"id":"d","kind":"poem","text":"T."}`,
			want:  []string{`x.jsonl:1: kind: "poem" is not one of prose, dialogue`},
		},
		{
			name:  "sentences in a dialogue",
			input: `{"id":"d","kind":"dialogue","sentences":["A."]}`,
			want:  []string{"x.jsonl:1: sentences: a dialogue is divided into turns, not sentences"},
		},
		{
			name:  "empty turn",
			input: `{"id":"d","turns":[{"speaker":"A","text":" "}]}`,
			want:  []string{"x.jsonl:1: turns[0].text: empty turn"},
		},
		{
			name:  "gold without label or ambiguity",
			input: `{"id":"d","text":"T.","summaries":[{"id":"s","text":"A.","gold":{"explanation":"why"}}]}`,
			want:  []string{"x.jsonl:1: summaries[0].gold.label: missing: a gold label needs a label, an ambiguity flag or both"},
		},
		{
			name:  "error types on a faithful sentence",
			input: `{"id":"d","text":"T.","summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"label":"faithful","error_types":["Contradiction"]}}]}]}`,
			want:  []string{"x.jsonl:1: summaries[0].sentences[0].gold.error_types: a faithful sentence has no error types"},
		},
		{
			name:  "unknown ambiguity type",
			input: `{"id":"d","text":"T.","summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"ambiguity_type":"irony"}}]}]}`,
			want:  []string{`x.jsonl:1: summaries[0].sentences[0].gold.ambiguity_type: "irony" is not an ambiguity type (one of deduction, commonsense_inference, value_inference, other_implicit_reasoning, hypernymy, hyponymy, synonymy, structural_ambiguity, lexical_ambiguity, vagueness, non_assertion, other_meaning, decontextualization, conflation, other_context, other_evaluability)`},
		},
		{
			name:  "ambiguity type on a sentence said not to be ambiguous",
			input: `{"id":"d","text":"T.","summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"ambiguous":false,"ambiguity_type":"vagueness"}}]}]}`,
			want:  []string{"x.jsonl:1: summaries[0].sentences[0].gold.ambiguity_type: an ambiguity type is given but ambiguous is false"},
		},
		{
			name:  "summary without text",
			input: `{"id":"d","text":"T.","summaries":[{"id":"s"}]}`,
			want:  []string{"x.jsonl:1: summaries[0].text: a summary needs text or sentences"},
		},
		{
			name:  "empty key fact",
			input: `{"id":"d","text":"T.","key_facts":[{"text":""}]}`,
			want:  []string{"x.jsonl:1: key_facts[0].text: empty key fact"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := parseString(t, "native", "x.jsonl", tt.input)
			if res != nil {
				t.Errorf("got a result despite errors")
			}
			es := errorList(t, err)
			var got []string
			for _, e := range es {
				got = append(got, e.Error())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestNativeReportsEveryBadLine(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf(`{"id":"d%d"}`, i))
	}
	_, err := parseString(t, "native", "x.jsonl", strings.Join(lines, "\n"))
	if es := errorList(t, err); len(es) != 30 {
		t.Errorf("got %d problems, want 30", len(es))
	}
}

func TestNativeResolves(t *testing.T) {
	input := strings.Join([]string{
		`{"id":" d1 ","kind":"dialogue","text":"Speaker 0: Hello there.\n\nSpeaker 1: Hi: welcome.\nno speaker here","summaries":[{"id":"s1","text":"They greet."}]}`,
		`{"id":"d2","language":"zh","text":"第一句。第二句！","summaries":[{"id":"s2","sentences":[{"text":" 第一句。 ","gold":{"label":"Unfaithful","error_types":["out-of-article error","Entity error","entity"]}}]}]}`,
		`{"id":"d3","turns":[{"speaker":"A","text":"x"}]}`,
	}, "\n")
	res, err := parseString(t, "", "x.jsonl", input)
	if err != nil {
		t.Fatal(err)
	}
	checkResolved(t, res.Documents)
	d1 := res.Documents[0]
	wantTurns := []domain.TurnInput{{Speaker: "Speaker 0", Text: "Hello there."}, {Speaker: "Speaker 1", Text: "Hi: welcome."}, {Text: "no speaker here"}}
	if d1.ExternalID != "d1" || !slices.Equal(d1.Turns, wantTurns) {
		t.Errorf("dialogue from text: id %q turns %+v", d1.ExternalID, d1.Turns)
	}
	d2 := res.Documents[1]
	if !slices.Equal(d2.Sentences, []string{"第一句。", "第二句！"}) {
		t.Errorf("chinese split %q", d2.Sentences)
	}
	g := d2.Summaries[0].Sentences[0].Gold
	if g.Label != "unfaithful" || !slices.Equal(g.ErrorTypes, []string{"out_of_article", "entity"}) {
		t.Errorf("gold normalised to %+v", g)
	}
	if res.ErrorTaxonomy != "msumbench" {
		t.Errorf("taxonomy %q, want msumbench", res.ErrorTaxonomy)
	}
	if d3 := res.Documents[2]; d3.Kind != domain.KindDialogue {
		t.Errorf("a document with turns got kind %q", d3.Kind)
	}
}

func TestNativeCustomErrorTypes(t *testing.T) {
	input := `{"id":"d","text":"T.","summaries":[{"id":"s","sentences":[{"text":"A.","gold":{"label":"unfaithful","error_types":["Number error"]}}]}]}`
	res, err := parseString(t, "", "x.jsonl", input)
	if err != nil {
		t.Fatal(err)
	}
	if res.ErrorTaxonomy != "" {
		t.Errorf("taxonomy %q, want none", res.ErrorTaxonomy)
	}
	if got := res.Documents[0].Summaries[0].Sentences[0].Gold.ErrorTypes; !slices.Equal(got, []string{"Number error"}) {
		t.Errorf("custom error types changed to %q", got)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "Number error") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestNativeLabelsDocExample parses the annotators' labels example of
// docs/import-format.md.
func TestNativeLabelsDocExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "import-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "<!-- labels-example:start -->")
	body, _, ok := strings.Cut(rest, "<!-- labels-example:end -->")
	if !ok {
		t.Fatal("labels example markers not found")
	}
	body = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(body), "```jsonl"), "```")
	res, err := parseString(t, "", "labels.jsonl", strings.TrimSpace(body)+"\n")
	if err != nil {
		t.Fatalf("the documented labels example does not parse:\n%v", err)
	}
	s := res.Documents[0].Summaries[0]
	if len(s.Sentences[0].Labels) != 2 || len(s.Sentences[1].Labels) != 2 || len(s.Labels) != 2 {
		t.Fatalf("labels %+v", s)
	}
	if l := s.Sentences[1].Labels[0]; l.Round != domain.ImportedRound || l.ErrorTypes[0] != "contradiction" {
		t.Errorf("label %+v", l)
	}
	if l := s.Sentences[1].Labels[1]; l.Round != "pilot" {
		t.Errorf("label %+v", l)
	}
}

func TestNativeLabelErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"no annotator", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","labels":[{"label":"faithful"}]}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].labels[0].annotator: missing`},
		{"bad annotator", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","labels":[{"annotator":"a b","label":"faithful"}]}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].labels[0].annotator: "a b": username may hold only`},
		{"bad label", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","labels":[{"annotator":"w1","label":"maybe"}]}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].labels[0].label: "maybe" is not one of`},
		{"twice in a round", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","labels":[{"annotator":"w1","label":"faithful"},{"annotator":"w1","label":"faithful","round":"imported"}]}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].labels[1].annotator: w1 already labels this in round "imported"`},
		{"relevance out of range", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A."}],"labels":[{"annotator":"w1","relevance":7}]}]}`,
			`x.jsonl:1: summaries[0].labels[0].relevance: 7 is not between 1 and 5`},
		{"round with a terminal escape", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A.","labels":[{"annotator":"w1","label":"faithful","round":"r\u001b[31m1"}]}]}]}`,
			`x.jsonl:1: summaries[0].sentences[0].labels[0].round: holds a control character (U+001B)`},
		{"round with a line break", `{"id":"d","sentences":["A."],"summaries":[{"id":"s","sentences":[{"text":"A."}],"labels":[{"annotator":"w1","relevance":3,"round":"one\ntwo"}]}]}`,
			`x.jsonl:1: summaries[0].labels[0].round: holds a control character (U+000A)`},
		{"raw row's round with an escape", `{"kind":"export","what":"raw"}` + "\n" + `{"round":"r\u001b]0;x\u0007","annotator":"w1","summary_id":"s","sentence_idx":1,"labelled":true,"label":"faithful"}`,
			`x.jsonl:2: round: holds a control character (U+001B)`},
		{"unknown field in a raw row", `{"kind":"export","what":"raw"}` + "\n" + `{"round":"r","annotator":"w1","summary_id":"s","sentence_idx":1,"labelled":true,"label":"faithful","colour":"red"}`,
			`x.jsonl:2: colour: unknown field of a raw export row`},
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

// TestNativeScalesDocExample parses the rating scales example of
// docs/import-format.md.
func TestNativeScalesDocExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "import-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "<!-- scales-example:start -->")
	body, _, ok := strings.Cut(rest, "<!-- scales-example:end -->")
	if !ok {
		t.Fatal("scales example markers not found")
	}
	body = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(body), "```jsonl"), "```")
	res, err := parseString(t, "", "scales.jsonl", strings.TrimSpace(body)+"\n")
	if err != nil {
		t.Fatalf("the documented scales example does not parse:\n%v", err)
	}
	if len(res.Scales) != 2 || res.Scales[0].Name != "consistency" || !res.Scales[1].Optional {
		t.Fatalf("scales %+v", res.Scales)
	}
	if l := res.Documents[0].Summaries[0].Labels; len(l) != 2 || l[0].Scores["consistency"] != 4.0 {
		t.Fatalf("summary labels %+v", l)
	}
}
