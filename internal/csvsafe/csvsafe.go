// Package csvsafe writes CSV that spreadsheets open as data: a cell that
// begins with =, +, -, @, a tab or a carriage return would be taken as a
// formula (CSV injection, OWASP), so it is written with a leading
// apostrophe, which spreadsheets show as text and do not display. Numbers
// such as -0.25 are left alone: a number cannot be a formula.
package csvsafe

import (
	"encoding/csv"
	"io"
	"strconv"
)

// Neutralise returns s as a cell that a spreadsheet will not evaluate.
func Neutralise(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if _, err := strconv.ParseFloat(s, 64); err == nil && s[0] != '\t' && s[0] != '\r' {
			return s
		}
		return "'" + s
	}
	return s
}

// Writer is a csv.Writer that neutralises every cell unless KeepFormulas
// is set.
type Writer struct {
	w *csv.Writer
	// KeepFormulas writes cells exactly as given (for tools that read the
	// file as data and want the original text).
	KeepFormulas bool
	buf          []string
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: csv.NewWriter(w)} }

// Write writes one record.
func (w *Writer) Write(rec []string) error {
	if w.KeepFormulas {
		return w.w.Write(rec)
	}
	w.buf = w.buf[:0]
	for _, c := range rec {
		w.buf = append(w.buf, Neutralise(c))
	}
	return w.w.Write(w.buf)
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() { w.w.Flush() }

// Error reports any error of a previous Write or Flush.
func (w *Writer) Error() error { return w.w.Error() }
