package assist

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Schema is the subset of JSON Schema the assistant emits for structured
// output and checks answers against: objects with required properties and
// no others, strings (optionally an enum), bounded integers, arrays,
// booleans (optionally fixed to one value), and choices: a schema with no
// type whose value must match one of its anyOf variants (one per value of
// a field another field depends on, such as a label and its error type).
//
// The subset is OpenAI's strict structured-output subset: the root is an
// object, never a choice; every object lists all its properties as
// required and sets additionalProperties to false; no oneOf, allOf, not,
// if/then/else or patternProperties; a fixed boolean is written enum
// [true], not const. In [SchemaStrict] mode the schema sent is exactly
// what the validator checks, so an answer that follows it is never
// refused. [SchemaPortable] leaves out the range keywords some servers
// reject and [SchemaJSONObject] sends no schema; in both the validator
// still checks every rule, and a repair request names what was broken.
type Schema struct {
	Type        string   `json:"type,omitempty"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	// Const fixes a boolean's value (in a choice's variant); it is written
	// as enum [value].
	Const    *bool   `json:"-"`
	Minimum  *int    `json:"minimum,omitempty"`
	Maximum  *int    `json:"maximum,omitempty"`
	Items    *Schema `json:"items,omitempty"`
	MinItems *int    `json:"minItems,omitempty"`
	MaxItems *int    `json:"maxItems,omitempty"`
	// AnyOf, on a schema with no type, lists the variants a value may
	// match: the schema is a choice.
	AnyOf []*Schema `json:"-"`
	// Properties keeps its order when marshalled: constrained decoders
	// generate fields in schema order, so "reason" is placed before "label"
	// to let the model argue before it commits.
	Properties []Property `json:"-"`
}

// SchemaMode says how much of the schema is sent to an endpoint.
type SchemaMode string

const (
	// SchemaStrict sends the whole schema with strict: true, as OpenAI's
	// structured outputs, vLLM, llama.cpp and Ollama take it. The default.
	SchemaStrict SchemaMode = "strict"
	// SchemaPortable sends the schema without the range keywords
	// (minimum, maximum, minItems, maxItems) that fine-tuned and some
	// open-weight servers reject; the validator still enforces them.
	SchemaPortable SchemaMode = "portable"
	// SchemaJSONObject asks for {"type": "json_object"} and sends no
	// schema, for servers without structured output; the prompts describe
	// the fields and the validator enforces every rule.
	SchemaJSONObject SchemaMode = "json_object"
)

// ParseSchemaMode accepts strict (or ""), portable and json_object.
func ParseSchemaMode(s string) (SchemaMode, error) {
	switch SchemaMode(s) {
	case "", SchemaStrict:
		return SchemaStrict, nil
	case SchemaPortable, SchemaJSONObject:
		return SchemaMode(s), nil
	}
	return "", fmt.Errorf("assist: schema mode %q is not one of strict, portable, json_object", s)
}

// Property is one named property of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// MarshalJSON writes the schema as [SchemaStrict] sends it: properties in
// declared order, all of them required, and additionalProperties false.
func (s *Schema) MarshalJSON() ([]byte, error) { return s.JSON(SchemaStrict) }

// JSON writes the schema as the mode sends it; [SchemaJSONObject] sends
// none, and gets the strict form here for the record.
func (s *Schema) JSON(mode SchemaMode) ([]byte, error) {
	var b bytes.Buffer
	if err := s.write(&b, mode == SchemaPortable); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// wireSchema is a schema's own keywords in the order they are written.
type wireSchema struct {
	Type        string         `json:"type,omitempty"`
	Description string         `json:"description,omitempty"`
	Enum        []string       `json:"enum,omitempty"`
	Minimum     *int           `json:"minimum,omitempty"`
	Maximum     *int           `json:"maximum,omitempty"`
	Items       json.Marshaler `json:"items,omitempty"`
	MinItems    *int           `json:"minItems,omitempty"`
	MaxItems    *int           `json:"maxItems,omitempty"`
}

// modeSchema marshals a schema as one mode sends it.
type modeSchema struct {
	s        *Schema
	portable bool
}

func (m modeSchema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := m.s.write(&b, m.portable)
	return b.Bytes(), err
}

func (s *Schema) write(b *bytes.Buffer, portable bool) error {
	w := wireSchema{Type: s.Type, Description: s.Description, Enum: s.Enum,
		Minimum: s.Minimum, Maximum: s.Maximum, MinItems: s.MinItems, MaxItems: s.MaxItems}
	if s.Items != nil {
		w.Items = modeSchema{s.Items, portable}
	}
	if portable {
		w.Minimum, w.Maximum, w.MinItems, w.MaxItems = nil, nil, nil, nil
	}
	head, err := json.Marshal(w)
	if err != nil {
		return err
	}
	b.Write(head[:len(head)-1])
	sep := func() {
		if b.Bytes()[b.Len()-1] != '{' {
			b.WriteByte(',')
		}
	}
	if s.Const != nil {
		sep()
		fmt.Fprintf(b, `"enum":[%v]`, *s.Const)
	}
	if s.Type == "object" {
		sep()
		b.WriteString(`"properties":{`)
		for i, p := range s.Properties {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(p.Name)
			b.Write(name)
			b.WriteByte(':')
			if err := p.Schema.write(b, portable); err != nil {
				return err
			}
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
	}
	if len(s.AnyOf) > 0 {
		sep()
		b.WriteString(`"anyOf":[`)
		for i, v := range s.AnyOf {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := v.write(b, portable); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return nil
}

// Choice returns a schema whose value must match one of the variants.
// OpenAI's strict mode allows it anywhere but at the root.
func Choice(description string, variants ...*Schema) *Schema {
	return &Schema{Description: description, AnyOf: variants}
}

// Variants returns a choice of copies of the object schema obj, one for
// each value of its enum property key: in each, key allows only that
// value and the properties in then[value] replace obj's.
func Variants(description string, obj *Schema, key string, then map[string]map[string]*Schema) *Schema {
	var base *Schema
	for _, p := range obj.Properties {
		if p.Name == key {
			base = p.Schema
		}
	}
	c := Choice(description)
	for _, value := range base.Enum {
		v := &Schema{Type: "object", Description: obj.Description}
		for _, p := range obj.Properties {
			sub := p.Schema
			if p.Name == key {
				e := *p.Schema
				e.Enum = []string{value}
				sub = &e
			} else if r, ok := then[value][p.Name]; ok {
				sub = r
			}
			v.Properties = append(v.Properties, Property{Name: p.Name, Schema: sub})
		}
		c.AnyOf = append(c.AnyOf, v)
	}
	return c
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
