package assist

import (
	"bytes"
	"encoding/json"
)

// Schema is the subset of JSON Schema the assistant emits for structured
// output and checks answers against: objects with required properties and no
// others, strings (optionally an enum), bounded integers, arrays and
// booleans. Keeping to this subset keeps the schemas acceptable to strict
// structured-output modes (OpenAI, vLLM, llama.cpp grammars) and keeps the
// validator small.
type Schema struct {
	Type        string   `json:"type"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Minimum     *int     `json:"minimum,omitempty"`
	Maximum     *int     `json:"maximum,omitempty"`
	Items       *Schema  `json:"items,omitempty"`
	MinItems    *int     `json:"minItems,omitempty"`
	MaxItems    *int     `json:"maxItems,omitempty"`
	// Properties keeps its order when marshalled: constrained decoders
	// generate fields in schema order, so "reason" is placed before "label"
	// to let the model argue before it commits.
	Properties []Property `json:"-"`
}

// Property is one named property of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// MarshalJSON writes the schema with its properties in declared order, all of
// them required, and additionalProperties false, as strict mode demands.
func (s *Schema) MarshalJSON() ([]byte, error) {
	type plain Schema // no methods, so no recursion
	head, err := json.Marshal((*plain)(s))
	if err != nil {
		return nil, err
	}
	if s.Type != "object" {
		return head, nil
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	b.WriteString(`,"properties":{`)
	for i, p := range s.Properties {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(p.Name)
		b.Write(name)
		b.WriteByte(':')
		sub, err := p.Schema.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b.Write(sub)
	}
	b.WriteString(`},"required":[`)
	for i, p := range s.Properties {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(p.Name)
		b.Write(name)
	}
	b.WriteString(`],"additionalProperties":false}`)
	return b.Bytes(), nil
}

// Object returns an object schema with the given properties, all required.
func Object(props ...Property) *Schema {
	return &Schema{Type: "object", Properties: props}
}

// Prop pairs a property name with its schema.
func Prop(name string, s *Schema) Property { return Property{Name: name, Schema: s} }

// String returns a free-text string schema.
func String(description string) *Schema {
	return &Schema{Type: "string", Description: description}
}

// Enum returns a string schema restricted to the given values.
func Enum(description string, values ...string) *Schema {
	return &Schema{Type: "string", Description: description, Enum: values}
}

// Integer returns an integer schema bounded by min and max inclusive.
func Integer(description string, min, max int) *Schema {
	return &Schema{Type: "integer", Description: description, Minimum: &min, Maximum: &max}
}

// Boolean returns a boolean schema.
func Boolean(description string) *Schema {
	return &Schema{Type: "boolean", Description: description}
}

// Array returns an array schema of items with at least minItems entries; a
// negative maxItems leaves the length unbounded above.
func Array(description string, items *Schema, minItems, maxItems int) *Schema {
	s := &Schema{Type: "array", Description: description, Items: items}
	if minItems > 0 {
		s.MinItems = &minItems
	}
	if maxItems >= 0 {
		s.MaxItems = &maxItems
	}
	return s
}
