package assist

import (
	"bytes"
	"encoding/json"
)

// Schema is the subset of JSON Schema the assistant emits for structured
// output and checks answers against: objects with required properties and no
// others, strings (optionally an enum), bounded integers, arrays and
// booleans, and on an object anyOf a list of complete variants of it (one
// per value of a field another field depends on, such as the label and its
// error type). Keeping to this subset keeps the schemas acceptable to
// structured-output modes (vLLM, llama.cpp grammars, OpenAI) and keeps the
// validator small. The schema sent is exactly what the validator checks:
// an answer that follows it is never refused.
type Schema struct {
	Type        string   `json:"type"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	// Const fixes a boolean's value (in an anyOf variant).
	Const    *bool   `json:"const,omitempty"`
	Minimum  *int    `json:"minimum,omitempty"`
	Maximum  *int    `json:"maximum,omitempty"`
	Items    *Schema `json:"items,omitempty"`
	MinItems *int    `json:"minItems,omitempty"`
	MaxItems *int    `json:"maxItems,omitempty"`
	// AnyOf, on an object, lists complete variants of it: the value must
	// satisfy the object and at least one variant. A decoder that ignores
	// anyOf still gets the object's own, looser, schema.
	AnyOf []*Schema `json:"-"`
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
	b.WriteString(`],"additionalProperties":false`)
	if len(s.AnyOf) > 0 {
		b.WriteString(`,"anyOf":[`)
		for i, v := range s.AnyOf {
			if i > 0 {
				b.WriteByte(',')
			}
			sub, err := v.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(sub)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Variants returns the object schema with anyOf variants: for each value
// of the enum property key, a copy of s where key allows only that value
// and the properties in then[value] replace s's.
func (s *Schema) Variants(key string, then map[string]map[string]*Schema) *Schema {
	var base *Schema
	for _, p := range s.Properties {
		if p.Name == key {
			base = p.Schema
		}
	}
	for _, value := range base.Enum {
		v := &Schema{Type: "object", Description: s.Description}
		for _, p := range s.Properties {
			sub := p.Schema
			if p.Name == key {
				c := *p.Schema
				c.Enum = []string{value}
				sub = &c
			} else if r, ok := then[value][p.Name]; ok {
				sub = r
			}
			v.Properties = append(v.Properties, Property{Name: p.Name, Schema: sub})
		}
		s.AnyOf = append(s.AnyOf, v)
	}
	return s
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
