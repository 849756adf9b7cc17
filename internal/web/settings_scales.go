package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"annotate/internal/domain"
)

// scalesText shows a project's rating scales for editing: a JSON list
// with one scale per line.
func scalesText(scales []domain.Scale) string {
	if len(scales) == 0 {
		return ""
	}
	lines := make([]string, len(scales))
	for i, sc := range scales {
		b, _ := json.Marshal(sc)
		lines[i] = "  " + string(b)
	}
	return "[\n" + strings.Join(lines, ",\n") + "\n]"
}

// parseScales reads the rating scales field of the settings form: a JSON
// list of scales (see tasks.Scale), or one scale object per line, empty
// for none. Unknown fields are refused so that a misspelt one is not
// silently dropped, and every error says which scale (or line) and field
// in words, not in Go's.
func parseScales(text string) ([]domain.Scale, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	var scales []domain.Scale
	if strings.HasPrefix(text, "[") {
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&scales); err != nil {
			return nil, fmt.Errorf("rating scales: %s", jsonProblem(err))
		}
	} else {
		for n, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ","))
			if line == "" {
				continue
			}
			var sc domain.Scale
			dec := json.NewDecoder(strings.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&sc); err != nil {
				return nil, fmt.Errorf("rating scales, line %d: %s (write one scale per line as a JSON object, {\"name\": ...}, or the whole list as [...])", n+1, jsonProblem(err))
			}
			scales = append(scales, sc)
		}
	}
	for i, sc := range scales {
		if field, err := sc.Validate(); err != nil {
			return nil, fmt.Errorf("rating scales: scale %d (%s): %s: %s", i+1, sc.Name, field, domain.ErrorMessage(err))
		}
	}
	return scales, nil
}

// jsonProblem says what is wrong with a scale's JSON without Go's type
// names.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON at character %d", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Sprintf("%s: expected %s, got a JSON %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
		}
		return fmt.Sprintf("expected %s, got a JSON %s", jsonKind(typ.Type.Kind().String()), typ.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonKind(k string) string {
	switch k {
	case "slice", "array":
		return "a list [...]"
	case "struct", "map":
		return "an object {...}"
	case "string":
		return "text"
	case "int", "float64", "ptr":
		return "a number"
	case "bool":
		return "true or false"
	}
	return k
}
