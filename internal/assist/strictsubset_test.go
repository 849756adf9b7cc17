package assist

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"annotate/internal/domain"
)

// StrictViolations is strictViolations for the black-box tests' fake
// endpoint.
var StrictViolations = strictViolations

// strictViolations lists how a schema document breaks OpenAI's strict
// structured-output subset (and, with portable, the portable one), in the
// words OpenAI's errors use. The rules:
//   - the root is an object, not anyOf;
//   - every object sets additionalProperties to false and lists every
//     property in required;
//   - no oneOf, allOf, not, if, then, else, patternProperties, const or any
//     keyword outside type, description, enum, properties, required,
//     additionalProperties, items, anyOf and the range keywords minimum,
//     maximum, minItems, maxItems (which portable leaves out as well);
//   - a schema has a type unless it is an anyOf, whose variants follow
//     these rules themselves;
//   - objects nest at most 5 levels deep.
func strictViolations(doc map[string]any, portable bool) []string {
	var out []string
	if _, ok := doc["anyOf"]; ok {
		out = append(out, "anyOf is not permitted at the root")
	}
	if doc["type"] != "object" {
		out = append(out, fmt.Sprintf("the root must be an object, not %v", doc["type"]))
	}
	allowed := map[string]bool{"type": true, "description": true, "enum": true, "properties": true, "required": true,
		"additionalProperties": true, "items": true, "anyOf": true}
	if !portable {
		for _, k := range []string{"minimum", "maximum", "minItems", "maxItems"} {
			allowed[k] = true
		}
	}
	var walk func(path string, s map[string]any, depth int)
	walk = func(path string, s map[string]any, depth int) {
		for _, k := range slices.Sorted(maps.Keys(s)) {
			if !allowed[k] {
				out = append(out, fmt.Sprintf("%s: keyword %q is not permitted", path, k))
			}
		}
		if variants, ok := s["anyOf"].([]any); ok {
			for i, v := range variants {
				walk(fmt.Sprintf("%s.anyOf[%d]", path, i), v.(map[string]any), depth)
			}
			return
		}
		switch s["type"] {
		case "object":
			if depth > 5 {
				out = append(out, fmt.Sprintf("%s: objects nest more than 5 levels deep", path))
			}
			if s["additionalProperties"] != false {
				out = append(out, fmt.Sprintf("%s: additionalProperties must be false", path))
			}
			props, _ := s["properties"].(map[string]any)
			req, _ := s["required"].([]any)
			var names []string
			for _, r := range req {
				names = append(names, fmt.Sprint(r))
			}
			if !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(maps.Keys(props))) {
				out = append(out, fmt.Sprintf("%s: required must list every property", path))
			}
			for _, name := range slices.Sorted(maps.Keys(props)) {
				walk(path+"."+name, props[name].(map[string]any), depth+1)
			}
		case "array":
			items, ok := s["items"].(map[string]any)
			if !ok {
				out = append(out, fmt.Sprintf("%s: an array needs items", path))
				return
			}
			walk(path+"[]", items, depth)
		case "string", "integer", "number", "boolean":
		default:
			out = append(out, fmt.Sprintf("%s: type %v is not permitted", path, s["type"]))
		}
	}
	walk("$", doc, 1)
	return out
}

// questionSchemas is every schema the assistant can send, by question.
func questionSchemas() map[string]*Schema {
	it := Item{
		DocUnits:   []Unit{{Text: "One."}, {Text: "Two."}, {Text: "Three."}, {Text: "Four."}},
		Summary:    []string{"A summary sentence."},
		ErrorTypes: domain.ErrorPresets["tofueval"],
		KeyFacts:   []KeyFact{{ID: "k1", Text: "A fact."}, {ID: "k2", Text: "Another."}},
	}
	return map[string]*Schema{
		"advocate":           advocateSchema(it),
		"skeptic":            skepticSchema(it),
		"single_adjudicator": adjudicatorSchema(it),
		"debate_adjudicator": debateAdjudicatorSchema(it),
		"debate_turn":        turnSchema(it),
		"ambiguity":          ambiguitySchema(),
		"key_facts":          keyFactsSchema(it),
	}
}

// TestSchemasKeepOpenAIStrictSubset checks every schema the assistant can
// send, as strict and as portable mode send it, against the subset.
func TestSchemasKeepOpenAIStrictSubset(t *testing.T) {
	qs := questionSchemas()
	for _, name := range slices.Sorted(maps.Keys(qs)) {
		for _, mode := range []SchemaMode{SchemaStrict, SchemaPortable} {
			doc := schemaDoc(t, qs[name], mode)
			if v := strictViolations(doc, mode == SchemaPortable); len(v) > 0 {
				t.Errorf("%s (%s): %v", name, mode, v)
			}
		}
	}
}

// TestStrictCheckerRefuses makes sure the checker finds what OpenAI refuses:
// a root anyOf, a const, an optional property, an open object.
func TestStrictCheckerRefuses(t *testing.T) {
	bad := Object(Prop("a", String("a")))
	bad.AnyOf = []*Schema{Object(Prop("a", Enum("a", "x")))}
	doc := schemaDoc(t, bad, SchemaStrict)
	if v := strictViolations(doc, false); !slices.Contains(v, "anyOf is not permitted at the root") {
		t.Errorf("root anyOf not found: %v", v)
	}
	doc = map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "boolean", "const": true},
		"b": map[string]any{"type": "object", "properties": map[string]any{}},
		"c": map[string]any{"type": "integer", "minimum": 1.0},
	}, "required": []any{"a", "b"}, "additionalProperties": false}
	v := strictViolations(doc, true)
	for _, want := range []string{`$.a: keyword "const" is not permitted`, "$: required must list every property",
		"$.b: additionalProperties must be false", `$.c: keyword "minimum" is not permitted`} {
		if !slices.Contains(v, want) {
			t.Errorf("missing %q in %v", want, v)
		}
	}
}

func schemaDoc(t *testing.T, s *Schema, mode SchemaMode) map[string]any {
	t.Helper()
	raw, err := s.JSON(mode)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return doc
}
