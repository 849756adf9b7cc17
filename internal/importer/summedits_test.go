package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

func TestSummEditsFixture(t *testing.T) {
	res, err := importer.ParseFiles("", fixtures("summedits/summedits_samsum.json", "summedits/summedits_news.json"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResolved(t, res.Documents)
	for _, s := range res.Stats {
		t.Log(s)
	}
	if res.Format != importer.FormatSummEdits {
		t.Errorf("format %q", res.Format)
	}
	got := count(res.Documents)
	if got.docs != 3 || got.summaries != 10 || got.gold != 10 {
		t.Errorf("counts %+v, want 3 documents, 10 summaries, 10 gold labels", got)
	}
	samsum := res.Documents[0]
	if samsum.Kind != domain.KindDialogue || samsum.Domain != "samsum" || !strings.HasPrefix(samsum.ExternalID, "summedits:samsum:") {
		t.Errorf("samsum document %q kind %q domain %q", samsum.ExternalID, samsum.Kind, samsum.Domain)
	}
	if samsum.Turns[0] != (domain.TurnInput{Speaker: "Ann", Text: "Darling, buy some butter."}) {
		t.Errorf("first turn %+v", samsum.Turns[0])
	}
	s := samsum.Summaries[1]
	if s.ExternalID != "samsum_train_13731241_0" || s.Gold.Label != domain.LabelUnfaithful || s.Original == "" || s.Original == s.Sentences[0].Text {
		t.Errorf("edited summary %+v", s)
	}
	if og := samsum.Summaries[0]; og.Gold.Label != domain.LabelFaithful {
		t.Errorf("seed summary label %q", og.Gold.Label)
	}
	news := res.Documents[2]
	if news.Kind != domain.KindProse || news.Domain != "news" || news.Sentences[0] != "Send this page to someone via email" {
		t.Errorf("news document kind %q domain %q first sentence %q", news.Kind, news.Domain, news.Sentences[0])
	}
	for _, st := range res.Stats {
		if st.Records != st.Summaries {
			t.Errorf("%s: %d records but %d summaries", st.File, st.Records, st.Summaries)
		}
	}
}

func TestSummEditsErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"label", `[{"id":"a","doc":"D.","summary":"S.","label":1,"original_summary":"O.","edit_types":[]},{"id":"b","doc":"D.","summary":"S.","label":2,"original_summary":"O.","edit_types":[]}]`,
			"summedits_news.json: record 2: label: 2 is not 0 (inconsistent) or 1 (consistent)"},
		{"missing fields", `[{"id":"","doc":"D.","summary":"","label":0}]`,
			"summedits_news.json: record 1: id: empty\nsummedits_news.json: record 1: summary: empty"},
		{"type", `[{"id":"a","doc":"D.","summary":"S.","label":1,"edit_types":"swap"}]`,
			"summedits_news.json: record 1: edit_types: expected []string, got string"},
		{"not an array", `{"id":"a"}`, "summedits_news.json: expected a JSON array of SummEdits records"},
		{"release columns", `[{"id":"a","doc":"D.","summary":"S.","label":1}]`,
			"summedits_news.json: record 1: original_summary: missing (SummEdits records carry it; if the file leaves it out on purpose, import it as partial: --partial, or the Import page's box)\n" +
				"summedits_news.json: record 1: edit_types: missing"},
		{"truncated", `[{"id":"a","doc":"D.","summary":"S.","label":1,"original_summary":"O.","edit_types":[]},`, "summedits_news.json: record 2: invalid JSON: the file ends inside the array"},
		{"duplicate ids", `[{"id":"a","doc":"D.","summary":"S.","label":1,"original_summary":"O.","edit_types":[]},{"id":"a","doc":"D.","summary":"T.","label":0,"original_summary":"O.","edit_types":[]}]`,
			`summedits_news.json: record 2: summaries[1].id: summary id "a" is used twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseString(t, "summedits", "summedits_news.json", tt.input)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got\n%v\nwant\n%s", err, tt.want)
			}
		})
	}
}

// TestSummEditsPartial: records without SummEdits' original_summary and
// edit_types are refused unless the import is declared partial; then they
// import with neither.
func TestSummEditsPartial(t *testing.T) {
	in := `[{"id":"a_0","doc":"D.","summary":"S.","label":1}]`
	if _, err := parseString(t, "summedits", "summedits_news.json", in); err == nil {
		t.Fatal("records without the release's columns imported")
	}
	res, err := importer.ParseWith("summedits", []importer.File{{Name: "summedits_news.json", R: strings.NewReader(in)}}, importer.Options{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 1 || len(res.Documents[0].Summaries) != 1 || res.Documents[0].Summaries[0].Original != "" {
		t.Fatalf("documents %+v", res.Documents)
	}
}
