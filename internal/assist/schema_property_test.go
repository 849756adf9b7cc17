package assist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The schemas sent to the model must state every rule the validator
// checks, so that an answer that follows the schema is never refused.
// TestSchemaStatesEveryRule checks this in both directions for every
// question the assistant asks: random answers generated from the schema
// as sent (in JSON) are accepted, and random answers near the edges (a
// wrong enum value, "none" with an unfaithful label, an integer out of
// range, a missing or extra field) are accepted by our validator exactly
// when a complete JSON Schema implementation accepts them.
//
// The reference implementation is santhosh-tekuri/jsonschema, which passes
// the official JSON-Schema-Test-Suite: it checks the schema documents
// themselves and judges the answers independently of our validator.
func TestSchemaStatesEveryRule(t *testing.T) {
	questions := questionSchemas()
	for _, name := range slices.Sorted(maps.Keys(questions)) {
		s := questions[name]
		// Each question draws from its own generator, so what it is given
		// does not depend on the order the others ran in.
		h := fnv.New64a()
		h.Write([]byte(name))
		rng := rand.New(rand.NewPCG(11, h.Sum64()))
		t.Run(name, func(t *testing.T) {
			doc, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var generic map[string]any
			if err := json.Unmarshal(doc, &generic); err != nil {
				t.Fatal(err)
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource("answer.json", generic); err != nil {
				t.Fatal(err)
			}
			ref, err := c.Compile("answer.json")
			if err != nil {
				t.Fatalf("the schema sent is not a valid JSON Schema: %v\n%s", err, doc)
			}
			accepted, refused, unfaithfulNone := 0, 0, 0
			for i := range 500 {
				answer := generate(rng, generic)
				if i%2 == 1 {
					answer = mutate(rng, generic, answer)
				}
				text, _ := json.Marshal(answer)
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
				if err != nil {
					t.Fatal(err)
				}
				refErr := ref.Validate(inst)
				// The whole path an answer takes: validation, then decoding
				// into the answer type.
				ourErr := decodeAnswer(Question{Name: name, Schema: s}, cachedAnswer{content: string(text)}, answerFor(name))
				if m, ok := answer.(map[string]any)["verdict"].(map[string]any); ok && m["label"] == "unfaithful" && m["error_type"] == noneCode {
					unfaithfulNone++
					if ourErr == nil {
						t.Fatalf("an unfaithful verdict without an error type was accepted: %s", text)
					}
				}
				if i%2 == 0 && refErr != nil {
					t.Fatalf("the generator made an answer the schema refuses: %s\n%v", text, refErr)
				}
				if (refErr == nil) != (ourErr == nil) {
					t.Fatalf("answer %s: the JSON Schema says %v, our validator says %v", text, refErr, ourErr)
				}
				if ourErr == nil {
					accepted++
				} else {
					refused++
				}
			}
			if (name == "single_adjudicator" || name == "debate_adjudicator") && unfaithfulNone == 0 {
				t.Error("no answer tried an unfaithful label with error type none")
			}
			if refused == 0 || accepted < 250 {
				t.Errorf("%d accepted and %d refused: the mutations do not reach the edges", accepted, refused)
			}
		})
	}
}

// generate makes a random value that satisfies a schema in the subset the
// assistant sends, choosing one anyOf variant when there are some.
// Properties are visited in sorted order, so that a seeded generator
// makes the same answers on every run.
func generate(rng *rand.Rand, s map[string]any) any {
	if variants, ok := s["anyOf"].([]any); ok {
		return generate(rng, variants[rng.IntN(len(variants))].(map[string]any))
	}
	switch s["type"] {
	case "object":
		out := map[string]any{}
		props := s["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			out[name] = generate(rng, props[name].(map[string]any))
		}
		return out
	case "string":
		if e, ok := s["enum"].([]any); ok {
			return e[rng.IntN(len(e))]
		}
		return fmt.Sprintf("text %d", rng.IntN(1000))
	case "integer":
		lo, hi := int(s["minimum"].(float64)), int(s["maximum"].(float64))
		return lo + rng.IntN(hi-lo+1)
	case "boolean":
		if e, ok := s["enum"].([]any); ok {
			return e[rng.IntN(len(e))]
		}
		return rng.IntN(2) == 1
	case "array":
		n := 0
		if m, ok := s["minItems"].(float64); ok {
			n = int(m)
		}
		n += rng.IntN(3)
		if m, ok := s["maxItems"].(float64); ok && n > int(m) {
			n = int(m)
		}
		out := []any{}
		for range n {
			out = append(out, generate(rng, s["items"].(map[string]any)))
		}
		return out
	}
	panic(fmt.Sprintf("no generator for %v", s["type"]))
}

// merged returns an object schema's properties; for a choice of objects,
// each property with the union of the variants' enum values, so that a
// mutation can put a value of one variant beside the fields of another
// ("none" beside "unfaithful").
func merged(s map[string]any) map[string]any {
	variants, ok := s["anyOf"].([]any)
	if !ok {
		return s["properties"].(map[string]any)
	}
	out := map[string]any{}
	for _, v := range variants {
		for name, p := range v.(map[string]any)["properties"].(map[string]any) {
			p := p.(map[string]any)
			prev, seen := out[name].(map[string]any)
			if !seen {
				c := maps.Clone(p)
				if e, ok := p["enum"].([]any); ok {
					c["enum"] = slices.Clone(e)
				}
				out[name] = c
				continue
			}
			if e, ok := p["enum"].([]any); ok {
				all, _ := prev["enum"].([]any)
				for _, x := range e {
					if !slices.Contains(all, x) {
						all = append(all, x)
					}
				}
				prev["enum"] = all
			}
		}
	}
	return out
}

// mutate changes one field of a generated answer to a value near an edge:
// another enum value of the same field anywhere in the schema (so that
// "none" meets "unfaithful"), a flipped boolean, an integer one past its
// bound, or a field removed or added; inside a nested object or choice it
// mutates one of that object's fields.
func mutate(rng *rand.Rand, s map[string]any, answer any) any {
	obj := answer.(map[string]any)
	props := merged(s)
	names := slices.Sorted(maps.Keys(props))
	name := names[rng.IntN(len(names))]
	p := props[name].(map[string]any)
	switch k := rng.IntN(10); {
	case k == 0:
		delete(obj, name)
	case k == 1:
		obj["extra"] = "x"
	default:
		if _, isChoice := p["anyOf"]; isChoice || p["type"] == "object" {
			if inner, ok := obj[name].(map[string]any); ok {
				obj[name] = mutate(rng, p, inner)
			}
			break
		}
		switch p["type"] {
		case "string":
			if e, ok := p["enum"].([]any); ok {
				obj[name] = e[rng.IntN(len(e))]
			}
		case "boolean":
			b, _ := obj[name].(bool)
			obj[name] = !b
		case "array":
			if items, ok := p["items"].(map[string]any); ok && items["type"] == "integer" {
				obj[name] = []any{int(items["maximum"].(float64)) + rng.IntN(2)}
			}
		}
	}
	return obj
}

// answerFor is the type an answer to the question decodes into.
func answerFor(question string) any {
	switch question {
	case "advocate", "skeptic":
		return new(sideAnswer)
	case "single_adjudicator", "debate_adjudicator":
		return new(verdictAnswer)
	case "debate_turn":
		return new(turnAnswer)
	case "ambiguity":
		return new(ambiguityAnswer)
	}
	return new(keyFactsAnswer)
}
