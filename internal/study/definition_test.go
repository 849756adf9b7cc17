package study

import (
	"strings"
	"testing"
	"time"
)

// TestParseIssueExample reads the documented example and fills defaults.
func TestParseIssueExample(t *testing.T) {
	d, err := ParseBytes([]byte(`{"round":"crowd","conditions":["none","verdict","debate"],"randomise":"participant","k":3,
		"items_per_participant":10,"attention_rate":0.1,"screening":{"items":4,"pass":0.75},"exclude":"any_failed_check"}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Round != "crowd" || len(d.Conditions) != 3 || d.K != 3 || *d.AttentionRate != 0.1 || d.Screening.Items != 4 || d.TooFastSeconds != 3 {
		t.Fatalf("got %+v", d)
	}
	d, err = ParseBytes([]byte(`{"round":"r","attention_rate":0,"time_limit":"45m"}`))
	if err != nil {
		t.Fatal(err)
	}
	if *d.AttentionRate != 0 || d.TimeLimit.Duration != 45*time.Minute || d.Conditions[0] != "none" || d.Exclude != "none" {
		t.Fatalf("explicit zero attention rate or time limit lost: %+v", d)
	}
}

// TestParseErrorsNameTheField lists bad definitions and the message each gets.
func TestParseErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ def, want string }{
		{`{}`, "round: required"},
		{`{"round":"r","colour":"red"}`, `unknown field "colour"`},
		{`{"round":"r","conditions":["none","chat"]}`, `conditions[1]: "chat" is not one of none, verdict, debate, after`},
		{`{"round":"r","conditions":["none","none"]}`, `conditions[1]: "none" is given twice`},
		{`{"round":"r","randomise":"day"}`, `randomise: "day" is not one of participant, item`},
		{`{"round":"r","conditions":["none","debate"],"randomise":"item","k":3}`, "k: 3 is not a multiple of the 2 conditions"},
		{`{"round":"r","attention_rate":1}`, "attention_rate: 1 is not at least 0 and below 1"},
		{`{"round":"r","screening":{"items":0,"pass":0.5}}`, "screening.items: 0 is not between 1 and 200"},
		{`{"round":"r","screening":{"items":4,"pass":1.5}}`, "screening.pass: 1.5"},
		{`{"round":"r","survey":[{"name":"q 1","text":"?","kind":"text"}]}`, `survey[0].name: "q 1"`},
		{`{"round":"r","survey":[{"name":"q","text":"?","kind":"scale","min":3,"max":3}]}`, "survey[0]: a scale needs min < max"},
		{`{"round":"r","survey":[{"name":"q","text":"?","kind":"radio"}]}`, `survey[0].kind: "radio" is not one of text, scale`},
		{`{"round":"r","exclude":"any_failed_check and too_fast"}`, "exclude:"},
		{`{"round":"r","time_limit":"soon"}`, `"soon" is not a duration`},
		{`{"round":"r","completion":{"completed":"C<script>"}}`, "completion.completed"},
		{`{"round":"r"} {"round":"s"}`, "more than one JSON value"},
	} {
		_, err := ParseBytes([]byte(tc.def))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.def, err, tc.want)
		}
	}
}
