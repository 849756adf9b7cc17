package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"annotate/internal/tasks"
)

// scalesText shows a project's rating scales for editing: a JSON list
// with one scale per line.
func scalesText(scales []tasks.Scale) string {
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
// list of scales (see tasks.Scale), empty for none. Unknown fields are
// refused so that a misspelt one is not silently dropped.
func parseScales(text string) ([]tasks.Scale, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var scales []tasks.Scale
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&scales); err != nil {
		return nil, fmt.Errorf("rating scales: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	for i, sc := range scales {
		if field, err := sc.Validate(); err != nil {
			return nil, fmt.Errorf("rating scales: scale %d (%s): %s: %s", i+1, sc.Name, field, tasks.ErrorMessage(err))
		}
	}
	return scales, nil
}
