package importer

import (
	"slices"
	"testing"

	"annotate/internal/domain"
)

func TestMADISSEType(t *testing.T) {
	tests := []struct {
		category, sub string
		code          string
		noted         bool
		unmapped      bool
	}{
		{"context phenomena", "Conflation", "conflation", false, false},
		{"implicit reasoning phenomena", "Inference-commonsense", "commonsense_inference", false, false},
		{"Other", "-", "other_evaluability", false, false},
		{"Other", "", "other_evaluability", false, false},
		{"", "", "", false, false},
		{"meaning phenomena", "-", "", false, true},
		{"meaning phenomena/context phenomena", "Linguistic ambiguity: Structural /Conflation", "structural_ambiguity", true, false},
		{"implicit reasoning phenomena/meaning phenomena", "Deduction/Semantic relations:Synonymy", "deduction", true, false},
		{"context phenomena", "Other meaning phenomena", "other_meaning", true, false},
		{"meaning phenomena", "Semantic relations: Hypernymy/Generalization", "hypernymy", false, false},
		{"meaning phenomena", "Irony", "", false, true},
		{"meaning phenomena", "Irony/Vagueness", "vagueness", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.category+"|"+tt.sub, func(t *testing.T) {
			code, note, unmapped := madisseType(tt.category, tt.sub)
			if code != tt.code || (note != "") != tt.noted || unmapped != tt.unmapped {
				t.Errorf("madisseType(%q, %q) = %q, %q, %v; want %q, noted %v, unmapped %v", tt.category, tt.sub, code, note, unmapped, tt.code, tt.noted, tt.unmapped)
			}
		})
	}
}

func TestParsePyList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`[]`, []string{}},
		{` [ 'a' ] `, []string{"a"}},
		{`['1. A fact.', "2. Another's fact."]`, []string{"1. A fact.", "2. Another's fact."}},
		{`['it\'s', "say \"hi\"", 'back\\slash']`, []string{"it's", `say "hi"`, `back\slash`}},
		{`['tab\there', 'nl\nx', '\x41\u00e9\U0001F600\101']`, []string{"tab\there", "nl\nx", "Aé😀A"}},
		{`['a' "b", 'c',]`, []string{"ab", "c"}},
		{`[r'\d+', u'x']`, []string{`\d+`, "x"}},
		{`['''tri'ple''', """dou"ble"""]`, []string{"tri'ple", `dou"ble`}},
		{`['unknown \q escape']`, []string{`unknown \q escape`}},
		{"['continued \\\nline']", []string{"continued line"}},
	}
	for _, tt := range tests {
		got, err := parsePyList(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("parsePyList(%s) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{``, `[`, `['a'`, `['a' 'b`, `['a',,]`, `[1]`, `['a'] x`, `'a'`, `['\x4']`, `['\N{DASH}']`, "['a\nb']", `[b'a']`} {
		if got, err := parsePyList(bad); err == nil {
			t.Errorf("parsePyList(%s) = %q, want an error", bad, got)
		}
	}
}

func TestNotKeyFact(t *testing.T) {
	for _, s := range []string{
		"There is no information in this document about the Carp population in Alameda.",
		"There is no mention in this document about the Impact of carp on local ecosystem.",
		"aspect not discussed in this article.",
		`Document does not contain any information that caters to the focus point of "Street Vacation."`,
		"No sufficient coverage of District 8 as a topic.",
		"A,B,D,E",
		"B,E,F",
	} {
		if !notKeyFact.MatchString(s) {
			t.Errorf("%q taken for a key fact", s)
		}
	}
	for _, s := range []string{
		"A public hearing will be held July 30th at 9:30 am.",
		"No council member objected to the motion.",
		"There was no opposition to the proposal.",
	} {
		if notKeyFact.MatchString(s) {
			t.Errorf("key fact %q left out", s)
		}
	}
}

func TestDialogueTurns(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []domain.TurnInput
	}{
		{"lines", "Marketing: Is it easy to use ?\nProject Manager: I'm not sure .\n\n", []domain.TurnInput{turn("Marketing", "Is it easy to use ?"), turn("Project Manager", "I'm not sure .")}},
		{"long speaker", "MICHELE NORRIS, host: Hello.\nMr. KARIM SADJADPOUR (International Crisis Group): My pleasure, Michele.", []domain.TurnInput{turn("MICHELE NORRIS, host", "Hello."), turn("Mr. KARIM SADJADPOUR (International Crisis Group)", "My pleasure, Michele.")}},
		{"joined", "Ann: Darling, buy some butter. . Mike: Ok. . Mike: Do we have any milk? . Ann: Yes, There is some in fridge. ", []domain.TurnInput{turn("Ann", "Darling, buy some butter."), turn("Mike", "Ok."), turn("Mike", "Do we have any milk?"), turn("Ann", "Yes, There is some in fridge.")}},
		{"prose", "The council met. It voted.\nThe motion passed.", nil},
		{"one line with colon", "Note: the meeting was short.", nil},
		{"some lines without speaker", "A: hi\nthe end", nil},
		{"clock time", "Start at 10:30.\nEnd at 11:00.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := dialogueTurns(tt.in)
			if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
				t.Errorf("dialogueTurns = %+v, %v; want %+v", got, ok, tt.want)
			}
		})
	}
}

func FuzzParsePyList(f *testing.F) {
	for _, s := range []string{`['1. a', "2. b"]`, `[r'\d', u'''x''', 'a' "b",]`, `['\x41\u00e9\101\N{X}']`, `[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		list, err := parsePyList(s)
		if err != nil && list != nil {
			t.Fatalf("list %q returned with error %v", list, err)
		}
	})
}

// turn builds a dialogue turn.
func turn(speaker, text string) domain.TurnInput {
	return domain.TurnInput{Speaker: speaker, Text: text}
}
