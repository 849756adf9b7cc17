package domain

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Scale is a rating dimension a project defines beside the built-in ones:
// an integer scale with a range and anchor texts (a Likert scale such as
// SummEval's 1–5 consistency), or a list of categories. Annotators give
// one value per sentence or per summary, as Level says.
type Scale struct {
	// Name identifies the scale in files and reports: lower-case letters,
	// digits and underscores.
	Name string `json:"name"`
	// Title is what annotators read; Name when empty.
	Title string `json:"title,omitempty"`
	// Question guides the annotator ("Is the summary consistent with the
	// document?").
	Question string `json:"question,omitempty"`
	Level    string `json:"level"` // LevelSentence or LevelSummary
	// Min and Max bound an integer scale; both nil for categories.
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
	// Anchors describe values of an integer scale: "1": "contradicts the
	// document", "5": "fully supported".
	Anchors map[string]string `json:"anchors,omitempty"`
	// Categories are the values of a categorical scale.
	Categories []string `json:"categories,omitempty"`
	// Optional scales may be left empty on submit.
	Optional bool `json:"optional,omitempty"`
}

// Levels a scale applies at.
const (
	LevelSentence = "sentence"
	LevelSummary  = "summary"
)

// Bounds on scales, so that a scale fits a keyboard and a page.
const (
	maxScales       = 20
	maxScaleSteps   = 21
	maxCategories   = 20
	maxScaleTextLen = 500
)

var scaleName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// builtinDimensions are names the report already uses.
var builtinDimensions = []string{"faithfulness", "error_types", "ambiguity", "ambiguity_type", "key_facts", "relevance", "topic_category"}

// Numeric reports whether the scale is an integer scale.
func (s Scale) Numeric() bool { return s.Min != nil && s.Max != nil }

// Label is the title annotators read.
func (s Scale) Label() string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}

// Values lists the values an annotator chooses from, in order.
func (s Scale) Values() []string {
	if !s.Numeric() {
		return slices.Clone(s.Categories)
	}
	var out []string
	for v := *s.Min; v <= *s.Max; v++ {
		out = append(out, strconv.Itoa(v))
	}
	return out
}

// Validate checks a scale definition; field names the offending field.
func (s Scale) Validate() (field string, err error) {
	switch {
	case !scaleName.MatchString(s.Name):
		return "name", Errorf(EInvalid, "%q is not a scale name (lower-case letters, digits and _, starting with a letter, at most 40)", s.Name)
	case slices.Contains(builtinDimensions, s.Name):
		return "name", Errorf(EInvalid, "%q is the name of a built-in dimension, which a scale cannot take (reserved: %s); name it otherwise, e.g. %s_score", s.Name, strings.Join(builtinDimensions, ", "), s.Name)
	case s.Level != LevelSentence && s.Level != LevelSummary:
		return "level", Errorf(EInvalid, "%q is not sentence or summary", s.Level)
	}
	for f, v := range map[string]string{"title": s.Title, "question": s.Question} {
		if utf8.RuneCountInString(v) > maxScaleTextLen {
			return f, Errorf(EInvalid, "longer than %d characters", maxScaleTextLen)
		}
	}
	if len(s.Categories) > 0 {
		if s.Min != nil || s.Max != nil || len(s.Anchors) > 0 {
			return "categories", Errorf(EInvalid, "a scale has either categories or a min and max, not both")
		}
		if len(s.Categories) < 2 || len(s.Categories) > maxCategories {
			return "categories", Errorf(EInvalid, "give 2 to %d categories", maxCategories)
		}
		seen := map[string]bool{}
		for i, c := range s.Categories {
			if c != strings.TrimSpace(c) || c == "" || utf8.RuneCountInString(c) > 60 {
				return fmt.Sprintf("categories[%d]", i), Errorf(EInvalid, "%q: a category is 1 to 60 characters without surrounding spaces", c)
			}
			if seen[c] {
				return fmt.Sprintf("categories[%d]", i), Errorf(EInvalid, "%q is given twice", c)
			}
			seen[c] = true
		}
		return "", nil
	}
	if s.Min == nil || s.Max == nil {
		return "min", Errorf(EInvalid, "a scale needs a min and a max, or categories")
	}
	if *s.Min >= *s.Max || *s.Max-*s.Min+1 > maxScaleSteps {
		return "max", Errorf(EInvalid, "the range %d–%d must go up and have at most %d values", *s.Min, *s.Max, maxScaleSteps)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Anchors)) {
		v, err := strconv.Atoi(k)
		if err != nil || v < *s.Min || v > *s.Max {
			return "anchors." + k, Errorf(EInvalid, "an anchor names a value of the scale, %d to %d", *s.Min, *s.Max)
		}
		if utf8.RuneCountInString(s.Anchors[k]) > maxScaleTextLen {
			return "anchors." + k, Errorf(EInvalid, "longer than %d characters", maxScaleTextLen)
		}
	}
	return "", nil
}

// validateScales checks a project's scale list.
func validateScales(scales []Scale) error {
	if len(scales) > maxScales {
		return Errorf(EInvalid, "at most %d scales", maxScales)
	}
	seen := map[string]bool{}
	for i, s := range scales {
		if field, err := s.Validate(); err != nil {
			return Errorf(EInvalid, "scales[%d].%s: %s", i, field, ErrorMessage(err))
		}
		if seen[s.Name] {
			return Errorf(EInvalid, "scales[%d].name: %q is defined twice", i, s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

// Scale returns the project's scale of that name.
func (s Settings) Scale(name string) (Scale, bool) {
	for _, sc := range s.Scales {
		if sc.Name == name {
			return sc, true
		}
	}
	return Scale{}, false
}

// ScoreValue checks a value given for a scale (a number for an integer
// scale, a category name otherwise) and returns it as stored: the integer
// in decimal, or the category.
func (s Scale) ScoreValue(v any) (string, error) {
	if s.Numeric() {
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		case int:
			f = float64(x)
		case string:
			n, err := strconv.Atoi(strings.TrimSpace(x))
			if err != nil {
				return "", Errorf(EInvalid, "%q is not a whole number", x)
			}
			f = float64(n)
		default:
			return "", Errorf(EInvalid, "expected a whole number from %d to %d", *s.Min, *s.Max)
		}
		if f != math.Trunc(f) || f < float64(*s.Min) || f > float64(*s.Max) {
			return "", Errorf(EInvalid, "%v is out of range: a whole number from %d to %d", f, *s.Min, *s.Max)
		}
		return strconv.Itoa(int(f)), nil
	}
	c, ok := v.(string)
	if !ok || !slices.Contains(s.Categories, c) {
		return "", Errorf(EInvalid, "%v is not one of %s", v, strings.Join(s.Categories, ", "))
	}
	return c, nil
}

// ScaleKey names one score of an assignment: a scale on a sentence, or on
// the summary when Sentence is 0.
type ScaleKey struct {
	Sentence int64
	Scale    string
}
