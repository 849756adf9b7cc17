package importer

import (
	"encoding/json"
	"testing"
)

// mentions and isKind only skip decoding a line when encoding/json could
// not find the key or kind in it: each line here is decoded both ways.
func TestMentionsAgreesWithDecoding(t *testing.T) {
	lines := []string{
		`{"kind":"end","records":3}`,
		`{"KIND":"end","records":3}`,
		`{"Kind":"export","what":"gold"}`,
		"{\"\u212aind\":\"end\",\"records\":3}", // Kelvin sign folds to k
		`{"\u006bind":"end","records":3}`,
		`{"kind":"\u0065nd","records":3}`,
		`{"kind":"prose","id":"d","text":"They attend the end of the \"end\" meeting."}`,
		`{"id":"d","text":"the kind of end"}`,
		`{"id":"d","summaries":[{"id":"s","sentences":[{"text":"x","gold":{"label":"unfaithful","ERROR_TYPES":["contradiction"]}}]}]}`,
		`{"id":"d","summaries":[{"id":"s","sentences":[{"text":"error types"}]}]}`,
		`{"SCALES":[]}`,
		"{\"\u017fcales\":[]}", // long s folds to s
		`{"scales":[]}`,
	}
	for _, line := range lines {
		var k struct {
			Kind string `json:"kind"`
		}
		json.Unmarshal([]byte(line), &k)
		for _, kind := range []string{"end", "export"} {
			if k.Kind == kind && !isKind([]byte(line), kind) {
				t.Errorf("isKind(%s, %q) = false, but it decodes as that kind", line, kind)
			}
		}
		var e struct {
			Summaries []struct {
				Sentences []struct {
					Gold struct {
						ErrorTypes []string `json:"error_types"`
					} `json:"gold"`
				} `json:"sentences"`
			} `json:"summaries"`
		}
		json.Unmarshal([]byte(line), &e)
		if len(e.Summaries) > 0 && len(e.Summaries[0].Sentences) > 0 && e.Summaries[0].Sentences[0].Gold.ErrorTypes != nil && !mentions([]byte(line), "error_types") {
			t.Errorf("mentions(%s, error_types) = false, but it decodes error types", line)
		}
		var s struct {
			Scales *[]any `json:"scales"`
		}
		json.Unmarshal([]byte(line), &s)
		if s.Scales != nil && !mentions([]byte(line), "scales") {
			t.Errorf("mentions(%s, scales) = false, but it decodes scales", line)
		}
	}
	for _, line := range []string{`{"id":"d","text":"the kind of end"}`, `{"kind":"prose","text":"They attend the end."}`} {
		if isKind([]byte(line), "end") {
			t.Errorf("isKind(%s, end) = true: the line would be decoded for nothing", line)
		}
	}
	if mentions([]byte(`{"id":"d","text":"error types"}`), "error_types") {
		t.Errorf("mentions found error_types in a line without the key")
	}
}
