package export

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// sink writes an export's records in its format. Tabular kinds hand it
// rows aligned with their columns; the gold JSON Lines export hands it
// whole records.
type sink interface {
	row(vals []any) error
	record(v any) error
	flush() error
}

func newSink(w io.Writer, format string, h Header, cols []string) (sink, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if format == CSV {
		s := &csvSink{bw: bw, w: csv.NewWriter(bw), cells: make([]string, len(cols))}
		return s, s.w.Write(cols)
	}
	s := &jsonlSink{bw: bw, cols: cols}
	return s, s.record(h)
}

// jsonlSink writes one JSON value per line; rows become objects whose keys
// are the columns, in column order.
type jsonlSink struct {
	bw   *bufio.Writer
	cols []string
	buf  bytes.Buffer
}

func (s *jsonlSink) record(v any) error {
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
	s.buf.Reset()
	s.buf.WriteByte('{')
	enc := json.NewEncoder(&s.buf)
	enc.SetEscapeHTML(false)
	for i, c := range s.cols {
		if i > 0 {
			s.buf.WriteByte(',')
		}
		fmt.Fprintf(&s.buf, "%q:", c)
		if err := enc.Encode(vals[i]); err != nil {
			return err
		}
		s.buf.Truncate(s.buf.Len() - 1) // Encode's newline
	}
	s.buf.WriteString("}\n")
	_, err := s.bw.Write(s.buf.Bytes())
	return err
}

func (s *jsonlSink) flush() error { return s.bw.Flush() }

// csvSink writes RFC 4180 CSV with a header row of the columns.
type csvSink struct {
	bw    *bufio.Writer
	w     *csv.Writer
	cells []string
}

func (s *csvSink) record(any) error { return fmt.Errorf("a CSV export writes rows, not records") }

func (s *csvSink) row(vals []any) error {
	for i, v := range vals {
		s.cells[i] = cell(v)
	}
	return s.w.Write(s.cells)
}

func (s *csvSink) flush() error {
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
	}
	return nil
}
