package importer_test

import (
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

func TestMADISSEFixture(t *testing.T) {
	res, err := importer.ParseFiles("", fixtures("madisse/MeetingBank_ambiguity_annotated.json"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResolved(t, res.Documents)
	if res.Format != importer.FormatMADISSE || res.ErrorTaxonomy != "" {
		t.Errorf("format %q taxonomy %q", res.Format, res.ErrorTaxonomy)
	}
	t.Log(res.Stats[0])
	got := count(res.Documents)
	want := totals{docs: 1, summaries: 7, sentences: 7, gold: 0, ambiguity: 7, turns: 22}
	if got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	types := map[string]int{}
	for _, s := range res.Documents[0].Summaries {
		g := s.Sentences[0].Gold
		if g.Label != "" {
			t.Errorf("MADISSE has no faithfulness labels, got %q", g.Label)
		}
		if *g.Ambiguous {
			types[g.AmbiguityType]++
			if g.AmbiguityNote == "" {
				t.Errorf("ambiguous sentence %q without its explanation", s.Sentences[0].Text)
			}
		}
	}
	if types["commonsense_inference"] != 2 || types["deduction"] != 1 || types["value_inference"] != 1 {
		t.Errorf("ambiguity types %v", types)
	}
}

func TestMADISSEWarnsUnmapped(t *testing.T) {
	line := func(amb, cat, sub string) string {
		return `{"doc":["Speaker 0: Hello."],"summary":"S` + amb + cat + sub + `.","ambiguity":"` + amb + `","category":"` + cat + `","sub-category":"` + sub + `","explanation":"e"}` + "\n"
	}
	input := line("1", "meaning phenomena", "Irony") + line("1", "meaning phenomena", "Irony ") +
		line("1", "meaning phenomena/context phenomena", "Linguistic ambiguity: Structural /Conflation") +
		line("0", "", "") + line("1", "Other", "-")
	res, err := parseString(t, "", "m.json", input)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Warnings, "\n")
	for _, w := range []string{
		`m.json: sub-category "Irony" (category "meaning phenomena") matches no ambiguity type; imported as ambiguous without a type (2 records)`,
		`m.json: sub-category "Linguistic ambiguity: Structural /Conflation" names several types (structural_ambiguity, conflation); kept the first (1 record)`,
	} {
		if !strings.Contains(all, w) {
			t.Errorf("missing warning %q in\n%s", w, all)
		}
	}
	var got []string
	for _, s := range res.Documents[0].Summaries {
		got = append(got, s.Sentences[0].Gold.AmbiguityType)
	}
	if want := []string{"", "", "structural_ambiguity", "", "other_evaluability"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("types %q, want %q", got, want)
	}
}

func TestMADISSEErrors(t *testing.T) {
	input := `{"doc":["Speaker 0: Hello."],"summary":"S.","ambiguity":"maybe","category":"","sub-category":"","explanation":""}` + "\n" +
		`{"doc":[],"summary":"","ambiguity":"0","category":"","sub-category":"","explanation":""}` + "\n" +
		`{"doc":"not a list","summary":"S.","ambiguity":"0"}` + "\n"
	_, err := parseString(t, "madisse", "m.json", input)
	want := strings.Join([]string{
		`m.json:1: ambiguity: "maybe" is not "0" or "1"`,
		"m.json:2: doc: empty transcript",
		"m.json:2: summary: empty summary sentence",
		"m.json:3: doc: expected []string, got string",
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestMADISSESample(t *testing.T) {
	res, err := importer.ParseFiles("", fixtures("madisse/sample_data.json"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResolved(t, res.Documents)
	if res.ErrorTaxonomy != "tofueval" {
		t.Errorf("taxonomy %q", res.ErrorTaxonomy)
	}
	got := count(res.Documents)
	if want := (totals{docs: 1, summaries: 2, sentences: 2, gold: 2, turns: 17}); got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	doc := res.Documents[0]
	if doc.ExternalID != "NPR-41366" || doc.Kind != domain.KindDialogue || doc.Domain != "mediasum" {
		t.Errorf("document %q kind %q domain %q", doc.ExternalID, doc.Kind, doc.Domain)
	}
	g := doc.Summaries[1].Sentences[0].Gold
	if g.Label != domain.LabelUnfaithful || strings.Join(g.ErrorTypes, ",") != "reasoning_error,contradiction" || g.Explanation == "" {
		t.Errorf("gold %+v", g)
	}
}
