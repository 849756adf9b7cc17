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
	"strings"
	"unicode"
	"unicode/utf8"
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

// AppendField appends one cell to a record being built in dst exactly as
// Writer writes it (neutralised unless keepFormulas, then quoted as
// encoding/csv quotes it), for writers that build whole records in a
// buffer; the caller separates cells with commas and ends the record with
// a newline. FuzzAppendField holds it to Writer.
func AppendField(dst []byte, field string, keepFormulas bool) []byte {
	if !keepFormulas {
		field = Neutralise(field)
	}
	if !needsQuotes(field) {
		return append(dst, field...)
	}
	dst = append(dst, '"')
	for {
		i := strings.IndexByte(field, '"')
		if i < 0 {
			break
		}
		dst = append(dst, field[:i+1]...)
		dst = append(dst, '"')
		field = field[i+1:]
	}
	dst = append(dst, field...)
	return append(dst, '"')
}

// needsQuotes is encoding/csv's rule for a comma-separated field: a
// comma, quote or line break in it, a leading space, or the field \.
func needsQuotes(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` {
		return true
	}
	for i := 0; i < len(field); i++ {
		switch field[i] {
		case '\n', '\r', '"', ',':
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
}
