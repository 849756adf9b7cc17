package assist_test

import (
	"encoding/json"
	"strings"
	"testing"

	"annotate/internal/assist"
)

func answerSchema() *assist.Schema {
	return assist.Object(
		assist.Prop("citations", assist.Array("units", assist.Integer("a unit", 1, 12), 1, 3)),
		assist.Prop("label", assist.Enum("label", "faithful", "unfaithful")),
		assist.Prop("ok", assist.Boolean("flag")),
		assist.Prop("reason", assist.String("why")),
		assist.Prop("facts", assist.Array("facts", assist.Object(
			assist.Prop("id", assist.Enum("id", "k1", "k2")),
			assist.Prop("reason", assist.String("why")),
		), 0, -1)),
	)
}

// TestValidateJSON proves the validator accepts what the schema allows and
// names the path and the rule of the first violation otherwise.
func TestValidateJSON(t *testing.T) {
	const good = `{"citations":[1,12],"label":"faithful","ok":true,"reason":"r","facts":[{"id":"k2","reason":"x"}]}`
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"valid", good, ""},
		{"integral float is an integer", strings.Replace(good, "[1,12]", "[1.0,12]", 1), ""},
		{"empty nested array", strings.Replace(good, `[{"id":"k2","reason":"x"}]`, "[]", 1), ""},
		{"not JSON", `{"citations":`, "$: not valid JSON"},
		{"trailing text", good + ` and more`, "$: unexpected text after the JSON value"},
		{"not an object", `[1]`, "$: expected an object, got an array"},
		{"missing property", `{"citations":[1],"label":"faithful","ok":true,"facts":[]}`, `$: missing required property "reason"`},
		{"extra property", strings.Replace(good, `"ok":true`, `"ok":true,"score":3,"aside":1`, 1), `$: unexpected properties "aside", "score"`},
		{"enum", strings.Replace(good, `"faithful"`, `"Faithful"`, 1), `$.label: "Faithful" is not one of ["faithful", "unfaithful"]`},
		{"below minimum", strings.Replace(good, "[1,12]", "[0]", 1), "$.citations[0]: 0 is less than the minimum 1"},
		{"above maximum", strings.Replace(good, "[1,12]", "[1,13]", 1), "$.citations[1]: 13 is greater than the maximum 12"},
		{"fraction", strings.Replace(good, "[1,12]", "[2.5]", 1), "$.citations[0]: expected an integer, got the number 2.5"},
		{"huge exponent", strings.Replace(good, "[1,12]", "[1e999999]", 1), "$.citations[0]: expected an integer"},
		{"string for integer", strings.Replace(good, "[1,12]", `["3"]`, 1), "$.citations[0]: expected an integer, got a string"},
		{"too few items", strings.Replace(good, "[1,12]", "[]", 1), "$.citations: has 0 items, fewer than the minimum 1"},
		{"too many items", strings.Replace(good, "[1,12]", "[1,2,3,4]", 1), "$.citations: has 4 items, more than the maximum 3"},
		{"boolean", strings.Replace(good, `"ok":true`, `"ok":"yes"`, 1), "$.ok: expected true or false, got a string"},
		{"null string", strings.Replace(good, `"reason":"r"`, `"reason":null`, 1), "$.reason: expected a string, got null"},
		{"nested enum", strings.Replace(good, `"k2"`, `"k9"`, 1), `$.facts[0].id: "k9" is not one of ["k1", "k2"]`},
		{"nested missing", strings.Replace(good, `{"id":"k2","reason":"x"}`, `{"id":"k2"}`, 1), `$.facts[0]: missing required property "reason"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := assist.ValidateJSON(answerSchema(), []byte(tc.doc))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("rejected: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("accepted, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestSchemaMarshalsForStrictMode proves the emitted schema keeps property
// order, requires every property and forbids others, at every level.
func TestSchemaMarshalsForStrictMode(t *testing.T) {
	b, err := json.Marshal(answerSchema())
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		`"required":["citations","label","ok","reason","facts"],"additionalProperties":false}`,
		`"items":{"type":"integer","description":"a unit","minimum":1,"maximum":12},"minItems":1,"maxItems":3`,
		`"required":["id","reason"],"additionalProperties":false`,
		`"enum":["faithful","unfaithful"]`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("schema lacks %s:\n%s", want, s)
		}
	}
	if i, j := strings.Index(s, `"citations":`), strings.Index(s, `"reason":`); i > j {
		t.Errorf("properties reordered: %s", s)
	}
	// What goes on the wire must be JSON in its own right.
	var generic map[string]any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
}
