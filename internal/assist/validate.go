package assist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ValidationError says where and why a value breaks a schema. Its message is
// sent back to the model in the repair request, so it names the JSON path and
// the expected value plainly.
type ValidationError struct {
	Path   string
	Reason string
}

// Error gives the path, then the reason.
func (e *ValidationError) Error() string { return e.Path + ": " + e.Reason }

// ValidateJSON parses data as exactly one JSON value and checks it against s.
func ValidateJSON(s *Schema, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return &ValidationError{Path: "$", Reason: "not valid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &ValidationError{Path: "$", Reason: "unexpected text after the JSON value"}
	}
	return s.Validate(v)
}

// Validate checks a value decoded by encoding/json (with UseNumber, or with
// float64 numbers) against s and returns the first violation found.
func (s *Schema) Validate(v any) error { return s.validate("$", v) }

func (s *Schema) validate(path string, v any) error {
	fail := func(format string, args ...any) error {
		return &ValidationError{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	switch s.Type {
	case "":
		if len(s.AnyOf) == 0 {
			return fail("schema has neither a type nor variants")
		}
		var why []string
		for _, variant := range s.AnyOf {
			err := variant.validate(path, v)
			if err == nil {
				return nil
			}
			why = append(why, err.Error())
		}
		return fail("matches none of the allowed combinations: %s", strings.Join(why, "; or "))
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fail("expected an object, got %s", kindOf(v))
		}
		for _, p := range s.Properties {
			val, ok := obj[p.Name]
			if !ok {
				return fail("missing required property %q", p.Name)
			}
			if err := p.Schema.validate(path+"."+p.Name, val); err != nil {
				return err
			}
		}
		if len(obj) > len(s.Properties) {
			var extra []string
			for name := range obj {
				if !slices.ContainsFunc(s.Properties, func(p Property) bool { return p.Name == name }) {
					extra = append(extra, strconv.Quote(name))
				}
			}
			slices.Sort(extra)
			return fail("unexpected properties %s", strings.Join(extra, ", "))
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fail("expected a string, got %s", kindOf(v))
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			return fail("%q is not one of %s", str, quoteAll(s.Enum))
		}
	case "integer":
		n, ok := asInteger(v)
		if !ok {
			return fail("expected an integer, got %s", describe(v))
		}
		if s.Minimum != nil && n < float64(*s.Minimum) {
			return fail("%s is less than the minimum %d", describeNumber(v), *s.Minimum)
		}
		if s.Maximum != nil && n > float64(*s.Maximum) {
			return fail("%s is greater than the maximum %d", describeNumber(v), *s.Maximum)
		}
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return fail("expected true or false, got %s", kindOf(v))
		}
		if s.Const != nil && b != *s.Const {
			return fail("must be %v here", *s.Const)
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return fail("expected an array, got %s", kindOf(v))
		}
		if s.MinItems != nil && len(arr) < *s.MinItems {
			return fail("has %d items, fewer than the minimum %d", len(arr), *s.MinItems)
		}
		if s.MaxItems != nil && len(arr) > *s.MaxItems {
			return fail("has %d items, more than the maximum %d", len(arr), *s.MaxItems)
		}
		if s.Items != nil {
			for i, item := range arr {
				if err := s.Items.validate(fmt.Sprintf("%s[%d]", path, i), item); err != nil {
					return err
				}
			}
		}
	default:
		return fail("schema type %q is not supported", s.Type)
	}
	return nil
}

// asInteger accepts JSON numbers without a fractional part (JSON Schema
// counts 3.0 as an integer). A float64 is exact for the small bounds the
// schemas use, and parsing through it avoids big-number work on hostile
// input such as 1e999999.
func asInteger(v any) (float64, bool) {
	var f float64
	switch n := v.(type) {
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(n.String(), 64); err != nil {
			return 0, false
		}
	case float64:
		f = n
	default:
		return 0, false
	}
	if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
		return 0, false
	}
	return f, true
}

func describeNumber(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return strconv.FormatFloat(v.(float64), 'g', -1, 64)
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

func describe(v any) string {
	switch n := v.(type) {
	case json.Number:
		return "the number " + n.String()
	case float64:
		return "the number " + strconv.FormatFloat(n, 'g', -1, 64)
	}
	return kindOf(v)
}

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
