package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"annotate/internal/csvsafe"
)

// sink writes an export's records in its format. Tabular kinds hand it
// rows aligned with their columns; the gold JSON Lines export hands it
// whole records.
type sink interface {
	row(vals []any) error
	record(v any) error
	// end finishes the export; a JSON Lines export ends with a record
	// saying how many records came before it (see End).
	end() error
	// count is the number of data records or rows written so far.
	count() int
}

func newSink(w io.Writer, format string, h Header, cols []string, keepFormulas bool) (sink, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if format == CSV {
		s := &csvSink{bw: bw, w: csvsafe.NewWriter(bw), cells: make([]string, len(cols))}
		s.w.KeepFormulas = keepFormulas
		return s, s.w.Write(cols)
	}
	s := &jsonlSink{bw: bw, cols: cols}
	err := s.record(h)
	s.n = 0 // the header is not a data record
	return s, err
}

// End is the last record of a JSON Lines export: its kind is "end" and
// Records is the number of data records between the header and it. A file
// without it, or with another count, was cut short.
type End struct {
	Kind    string `json:"kind"` // always EndKind
	Records int    `json:"records"`
}

// EndKind is End.Kind.
const EndKind = "end"

// jsonlSink writes one JSON value per line; rows become objects whose keys
// are the columns, in column order.
type jsonlSink struct {
	bw   *bufio.Writer
	cols []string
	keys []string // each column as a JSON key with its colon
	line []byte   // the row being written, reused
	buf  bytes.Buffer
	n    int
}

func (s *jsonlSink) count() int { return s.n }

func (s *jsonlSink) end() error {
	if err := s.record(End{Kind: EndKind, Records: s.n}); err != nil {
		return err
	}
	s.n--
	return s.bw.Flush()
}

func (s *jsonlSink) record(v any) error {
	s.n++
	s.buf.Reset()
	enc := json.NewEncoder(&s.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := s.bw.Write(s.buf.Bytes())
	return err
}

func (s *jsonlSink) row(vals []any) error {
	s.n++
	if s.keys == nil {
		for _, c := range s.cols {
			s.keys = append(s.keys, string(appendJSONString(nil, c))+":")
		}
	}
	b := append(s.line[:0], '{')
	for i, k := range s.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, k...)
		var ok bool
		if b, ok = appendJSON(b, vals[i]); ok {
			continue
		}
		// Any other type: encoding/json, as before.
		s.buf.Reset()
		enc := json.NewEncoder(&s.buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(vals[i]); err != nil {
			return err
		}
		b = append(b, bytes.TrimSuffix(s.buf.Bytes(), []byte("\n"))...)
	}
	b = append(b, "}\n"...)
	s.line = b
	_, err := s.bw.Write(b)
	return err
}

// csvSink writes RFC 4180 CSV with a header row of the columns.
type csvSink struct {
	bw    *bufio.Writer
	w     *csvsafe.Writer
	cells []string
	n     int
}

func (s *csvSink) count() int { return s.n }

func (s *csvSink) record(any) error { return fmt.Errorf("a CSV export writes rows, not records") }

func (s *csvSink) row(vals []any) error {
	for i, v := range vals {
		s.cells[i] = cell(v)
	}
	s.n++
	return s.w.Write(s.cells)
}

// end flushes; CSV has no place for a trailer, so a download carries the
// count in the X-Export-Records trailer (see docs/export.md).
func (s *csvSink) end() error {
	s.w.Flush()
	if err := s.w.Error(); err != nil {
		return err
	}
	return s.bw.Flush()
}

// cell formats a value for CSV: empty for a missing value, true/false,
// lists joined by "; ".
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case *bool:
		if x == nil {
			return ""
		}
		return strconv.FormatBool(*x)
	case *int:
		if x == nil {
			return ""
		}
		return strconv.Itoa(*x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case *float64:
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'f', -1, 64)
	case []string:
		return strings.Join(x, "; ")
	case map[string]any:
		if len(x) == 0 {
			return ""
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	panic(fmt.Sprintf("export: no CSV form for %T", v))
}

// columnsOf lists the columns of a tabular kind (the gold CSV for Gold).
func columnsOf(what string) []string {
	switch what {
	case Gold:
		return goldColumns
	case Raw:
		return rawColumns
	case TofuEval:
		return tofuColumns
	case Scores:
		return scoreColumns
	case Stale:
		return staleColumns
	}
	return nil
}
