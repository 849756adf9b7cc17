package importer

import (
	"fmt"
	"strings"

	"annotate/internal/domain"
)

// Error is one problem found in an input file, located as precisely as the
// format allows.
type Error struct {
	File string
	// Line is the 1-based line of a JSON Lines or CSV file; 0 if unknown.
	Line int
	// Record is the 1-based position of a record in a JSON array (the
	// SummEdits files); 0 if the format has lines instead.
	Record int
	// Field is the path of the offending value, such as
	// "summaries[0].sentences[2].gold.label" or a CSV column name.
	Field   string
	Message string
}

// Error formats the problem as "file:line: field: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, ":%d", e.Line)
	case e.Record > 0:
		fmt.Fprintf(&b, ": record %d", e.Record)
	}
	if e.Field != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(e.Field)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Errors is every problem found in one import. Parse returns it, never an
// empty one, when the input must be rejected.
type Errors []*Error

// shownErrors is how many problems Errors.Error spells out; the rest are
// counted.
const shownErrors = 20

// Error lists the first problems, one per line, and counts the others.
func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i == shownErrors {
			fmt.Fprintf(&b, "\n... and %d more", len(es)-shownErrors)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives errors.As and errors.Is access to each problem.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// maxErrors bounds how many problems one import collects, so that feeding a
// large file of the wrong format fails fast and in bounded memory.
const maxErrors = 1000

// collector gathers the problems and warnings of one import.
type collector struct {
	errs  Errors
	warns []string
	// labels are annotators' labels read from raw export rows.
	labels []located
	// scales are rating scales defined in the files, with where each was
	// defined.
	scales  []domain.Scale
	scaleAt map[string]string
	// partial is Options.Partial.
	partial bool
	// skip holds Options.SkipDocuments.
	skip map[string]bool
}

// add records a problem; once maxErrors is reached it records that checking
// stopped and ignores the rest.
func (c *collector) add(e *Error) {
	switch {
	case len(c.errs) < maxErrors:
		c.errs = append(c.errs, e)
	case len(c.errs) == maxErrors:
		c.errs = append(c.errs, &Error{File: e.File, Message: "too many errors; stopped checking"})
	}
}

// addf records a problem at a location taken from at.
func (c *collector) addf(at *Error, field, format string, args ...any) {
	e := *at
	e.Field = joinField(at.Field, field)
	e.Message = fmt.Sprintf(format, args...)
	c.add(&e)
}

// full reports whether checking should stop.
func (c *collector) full() bool { return len(c.errs) > maxErrors }

// warnf records a warning: something imported differently from how it was
// written, or left out, that the person importing should know about.
func (c *collector) warnf(format string, args ...any) {
	c.warns = append(c.warns, fmt.Sprintf(format, args...))
}

// joinField appends a field name or index to a path.
func joinField(path, field string) string {
	switch {
	case path == "":
		return field
	case field == "":
		return path
	case strings.HasPrefix(field, "["):
		return path + field
	}
	return path + "." + field
}
