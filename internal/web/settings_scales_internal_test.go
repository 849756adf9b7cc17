package web

import (
	"strings"
	"testing"
)

// TestParseScalesForms reads scales as a JSON list and one object per
// line, and explains a bad one in words, naming the line.
func TestParseScalesForms(t *testing.T) {
	one := `{"name":"consistency","level":"summary","min":1,"max":5}`
	two := `{"name":"support","level":"sentence","categories":["direct","inferred","absent"]}`
	for _, text := range []string{"[" + one + "," + two + "]", one + "\n" + two, one + ",\n\n" + two + "\n"} {
		got, err := parseScales(text)
		if err != nil || len(got) != 2 || got[0].Name != "consistency" || got[1].Name != "support" {
			t.Errorf("%q: %v, %v", text, got, err)
		}
	}
	for text, want := range map[string]string{
		one + "\n" + `{"name":"x","level":"sentence","min":"one","max":5}`: `rating scales, line 2: min: expected a number, got a JSON string`,
		one + "\n" + `{"name":"y",`:                                        "rating scales, line 2:",
		`{"name":"z","level":"summary","min":1,"max":5,"colour":"red"}`:    `unknown field "colour"`,
	} {
		_, err := parseScales(text)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "tasks.Scale") || strings.Contains(err.Error(), "Go value") {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
