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
	cells
	// endRow writes the row built with the cells methods.
	endRow() error
	record(v any) error
	// end finishes the export; a JSON Lines export ends with a record
	// saying how many records came before it (see End).
	end() error
	// count is the number of data records or rows written so far.
	count() int
}

// cells builds a row one cell at a time, in column order, without
// boxing each value in an interface as row does: the raw export writes a
// million rows of thirty-five cells. A cell of any other type goes
// through value, which writes it as row would.
type cells interface {
	str(string)
	num(int)
	flag(bool)
	optFlag(*bool)
	optNum(*int)
	optFloat(*float64)
	list([]string)
	value(any)
}

func newSink(w io.Writer, format string, h Header, cols []string, keepFormulas bool) (sink, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if format == CSV {
		s := &csvSink{bw: bw, keepFormulas: keepFormulas}
		for _, c := range cols {
			s.str(c)
		}
		return s, s.endLine()
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
	col  int      // the next cell's column
	err  error    // a cell that could not be encoded
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
	for _, v := range vals {
		s.value(v)
	}
	return s.endRow()
}

// key starts the next cell with its column's key.
func (s *jsonlSink) key() {
	if s.keys == nil {
		for _, c := range s.cols {
			s.keys = append(s.keys, string(appendJSONString(nil, c))+":")
		}
	}
	if s.col == 0 {
		s.line = append(s.line[:0], '{')
	} else {
		s.line = append(s.line, ',')
	}
	s.line = append(s.line, s.keys[s.col]...)
	s.col++
}

func (s *jsonlSink) str(v string)    { s.key(); s.line = appendJSONString(s.line, v) }
func (s *jsonlSink) num(v int)       { s.key(); s.line = strconv.AppendInt(s.line, int64(v), 10) }
func (s *jsonlSink) flag(v bool)     { s.key(); s.line = strconv.AppendBool(s.line, v) }
func (s *jsonlSink) list(v []string) { s.key(); s.line, _ = appendJSON(s.line, v) }

func (s *jsonlSink) optFlag(v *bool) {
	s.key()
	s.line, _ = appendJSON(s.line, v)
}

func (s *jsonlSink) optNum(v *int) {
	s.key()
	s.line, _ = appendJSON(s.line, v)
}

func (s *jsonlSink) optFloat(v *float64) {
	if v == nil {
		s.key()
		s.line = append(s.line, "null"...)
		return
	}
	s.value(*v) // encoding/json's float format
}

// value writes any value: the common types without reflection (see
// appendJSON), any other through encoding/json, as before.
func (s *jsonlSink) value(v any) {
	s.key()
	var ok bool
	if s.line, ok = appendJSON(s.line, v); ok {
		return
	}
	s.buf.Reset()
	enc := json.NewEncoder(&s.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	s.line = append(s.line, bytes.TrimSuffix(s.buf.Bytes(), []byte("\n"))...)
}

func (s *jsonlSink) endRow() error {
	s.col = 0
	if s.err != nil {
		return s.err
	}
	s.n++
	s.line = append(s.line, "}\n"...)
	_, err := s.bw.Write(s.line)
	return err
}

// csvSink writes RFC 4180 CSV with a header row of the columns, each
// cell neutralised unless keepFormulas (see csvsafe.AppendField).
type csvSink struct {
	bw           *bufio.Writer
	keepFormulas bool
	line         []byte // the row being written, reused
	col          int    // the next cell's column
	n            int
}

func (s *csvSink) count() int { return s.n }

func (s *csvSink) record(any) error { return fmt.Errorf("a CSV export writes rows, not records") }

func (s *csvSink) row(vals []any) error {
	for _, v := range vals {
		s.value(v)
	}
	return s.endRow()
}

// next starts the next cell.
func (s *csvSink) next() {
	if s.col == 0 {
		s.line = s.line[:0]
	} else {
		s.line = append(s.line, ',')
	}
	s.col++
}

// Numbers and booleans need neither neutralising (a number is no formula)
// nor quoting.
func (s *csvSink) str(v string) { s.next(); s.line = csvsafe.AppendField(s.line, v, s.keepFormulas) }
func (s *csvSink) num(v int)    { s.next(); s.line = strconv.AppendInt(s.line, int64(v), 10) }
func (s *csvSink) flag(v bool)  { s.next(); s.line = strconv.AppendBool(s.line, v) }
func (s *csvSink) list(v []string) {
	switch len(v) {
	case 0:
		s.str("")
	case 1:
		s.str(v[0]) // no "; " to join with
	default:
		s.str(cell(v))
	}
}
func (s *csvSink) value(v any) { s.str(cell(v)) }
func (s *csvSink) optFloat(v *float64) {
	s.next()
	if v != nil {
		s.line = strconv.AppendFloat(s.line, *v, 'f', -1, 64)
	}
}

func (s *csvSink) optFlag(v *bool) {
	s.next()
	if v != nil {
		s.line = strconv.AppendBool(s.line, *v)
	}
}

func (s *csvSink) optNum(v *int) {
	s.next()
	if v != nil {
		s.line = strconv.AppendInt(s.line, int64(*v), 10)
	}
}

func (s *csvSink) endRow() error {
	s.n++
	return s.endLine()
}

// endLine writes the line built.
func (s *csvSink) endLine() error {
	s.col = 0
	s.line = append(s.line, '\n')
	_, err := s.bw.Write(s.line)
	return err
}

// end flushes; CSV has no place for a trailer, so a download carries the
// count in the X-Export-Records trailer (see docs/export.md).
func (s *csvSink) end() error { return s.bw.Flush() }

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
