package tasks

import "strings"

// ParseTaxonomyLines reads a custom error taxonomy written one type a line
// as "code | name | definition" (name and definition may be left out);
// blank lines and lines starting with '#' are skipped. Validation is Settings.Validate's.
func ParseTaxonomyLines(text string) []TaxonomyType {
	var out []TaxonomyType
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		parts := strings.SplitN(line, "|", 3)
		for len(parts) < 3 {
			parts = append(parts, "")
		}
		out = append(out, TaxonomyType{Code: strings.TrimSpace(parts[0]), Name: strings.TrimSpace(parts[1]), Definition: strings.TrimSpace(parts[2])})
	}
	return out
}

// FormatTaxonomyLines writes types as ParseTaxonomyLines reads them.
func FormatTaxonomyLines(types []TaxonomyType) string {
	lines := make([]string, 0, len(types))
	for _, t := range types {
		lines = append(lines, t.Code+" | "+t.Name+" | "+t.Definition)
	}
	return strings.Join(lines, "\n")
}
