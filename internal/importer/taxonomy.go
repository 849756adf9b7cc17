package importer

import (
	"slices"
	"strings"
	"unicode"

	"annotate/internal/domain"
)

// presetOrder is the order in which a native file's error types are matched
// against the presets when the file does not say which one it uses.
var presetOrder = []string{"tofueval", "msumbench", "frank"}

// words lowercases s and keeps its letters and digits as space-separated
// words, so that "Tense/Modality Error", "tense_modality error" and
// "Tense-Modality  Error" all compare equal.
func words(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(f, " ")
}

// ErrorTypeCode returns the code of the error type of the named preset that
// s names, accepting the code or the display name in any case and
// punctuation.
func ErrorTypeCode(preset, s string) (string, bool) {
	key := words(s)
	if key == "" {
		return "", false
	}
	for _, t := range domain.ErrorPresets[preset] {
		if key == words(t.Code) || key == words(t.Name) {
			return t.Code, true
		}
	}
	return "", false
}

// errorTypeNames lists a preset's display names for messages.
func errorTypeNames(preset string) string {
	var names []string
	for _, t := range domain.ErrorPresets[preset] {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

// inferPreset returns the first preset that names every one of the error
// types, or "" when none does (or there are none).
func inferPreset(types []string) string {
	if len(types) == 0 {
		return ""
	}
	for _, p := range presetOrder {
		all := true
		for _, t := range types {
			if _, ok := ErrorTypeCode(p, t); !ok {
				all = false
				break
			}
		}
		if all {
			return p
		}
	}
	return ""
}

// ambiguityKey reduces a spelling of an ambiguity type to the words that
// identify it: the group prefixes MADISSE writes before some names
// ("Linguistic ambiguity:", "Semantic relations:") and the generic tails
// ("phenomenon", "issue", "ambiguity") are dropped.
func ambiguityKey(s string) string {
	k := " " + words(s) + " "
	k = strings.ReplaceAll(k, " common sense ", " commonsense ")
	for _, prefix := range []string{" linguistic ambiguity ", " semantic relations ", " semantic relation "} {
		if strings.HasPrefix(k, prefix) {
			k = " " + k[len(prefix):]
		}
	}
	for _, tail := range []string{" phenomenon ", " phenomena ", " phenoma ", " issue ", " ambiguity "} {
		if strings.HasSuffix(k, tail) {
			k = k[:len(k)-len(tail)+1]
		}
	}
	return strings.TrimSpace(k)
}

// ambiguityAliases maps ambiguityKey of every accepted spelling to a code:
// the codes and names of tasks.AmbiguityTypes, each half of a
// "Hypernymy/Generalization" name, and MADISSE's "Inference-..." spellings.
var ambiguityAliases = func() map[string]string {
	m := map[string]string{}
	for _, t := range domain.AmbiguityTypes {
		m[ambiguityKey(t.Code)] = t.Code
		m[ambiguityKey(t.Name)] = t.Code
		if a, b, ok := strings.Cut(t.Name, "/"); ok {
			m[ambiguityKey(a)] = t.Code
			m[ambiguityKey(b)] = t.Code
		}
	}
	m["inference commonsense"] = "commonsense_inference"
	m["inference value based"] = "value_inference"
	m["value based"] = "value_inference"
	m["other reasoning"] = "other_implicit_reasoning"
	return m
}()

// AmbiguityCode returns the code of the ambiguity type that s names. It
// accepts the codes and names of tasks.AmbiguityTypes and the free-form
// spellings of the MADISSE release ("Inference-commonsense", "Linguistic
// ambiguity: Lexical", "Other context phenoma"), in any case.
func AmbiguityCode(s string) (string, bool) {
	code, ok := ambiguityAliases[ambiguityKey(s)]
	return code, ok
}

// ambiguityCodes lists the codes for messages.
func ambiguityCodes() string {
	var codes []string
	for _, t := range domain.AmbiguityTypes {
		codes = append(codes, t.Code)
	}
	return strings.Join(codes, ", ")
}

// madisseType maps a MADISSE category and sub-category onto an ambiguity
// code. It returns "" when the record names no type. note explains a
// mapping that needed a choice, and unmapped is set when the record names a
// type that matches none of the taxonomy.
func madisseType(category, sub string) (code, note string, unmapped bool) {
	sub = strings.TrimSpace(sub)
	if sub == "" || sub == "-" {
		if words(category) == "other" {
			return "other_evaluability", "", false
		}
		if strings.TrimSpace(category) == "" {
			return "", "", false
		}
		return "", "", true
	}
	if c, ok := AmbiguityCode(sub); ok {
		return c, groupNote(category, c), false
	}
	// Several types joined by "/": keep the first that maps.
	parts := strings.Split(sub, "/")
	var codes []string
	for _, p := range parts {
		if c, ok := AmbiguityCode(p); ok && !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	if len(codes) == 0 {
		return "", "", true
	}
	note = "names several types (" + strings.Join(codes, ", ") + "); kept the first"
	if len(codes) == 1 {
		note = "has parts that name no type; kept " + codes[0]
	}
	return codes[0], note, false
}

// groupNote says when the category disagrees with the group of the type the
// sub-category names; the sub-category, being the more specific, wins.
func groupNote(category, code string) string {
	t, _ := domain.AmbiguityType(code)
	group := words(t.Group)
	for _, part := range strings.Split(category, "/") {
		if strings.TrimSpace(part) == "" || strings.HasPrefix(words(part), group) {
			return ""
		}
	}
	return "sits under category " + quote(category) + " but names a type of group " + t.Group + "; kept " + code
}

// quote writes s in double quotes for messages.
func quote(s string) string { return `"` + s + `"` }
