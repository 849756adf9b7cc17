package agreement

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// columns are the header names ReadRatings requires.
var columns = [3]string{"unit", "coder", "value"}

// ReadRatings reads a ratings CSV from r. The header must name exactly the
// columns unit, coder and value, in any order (case and surrounding spaces
// ignored); each following row is one rating, and an empty value means no
// rating. Fields are trimmed of surrounding spaces.
//
// Errors name the file, the line and the field, as in
// `ratings.csv:17: unit: empty`; a second row for the same unit and coder is
// an error naming both lines (reported once the whole file has been read,
// so that a malformed line anywhere is reported first). Values are kept as
// text here and interpreted by [Compute] according to the level of
// measurement.
//
// Lines starting with '#' before the header are comments; those of the
// form "# key: value" are kept in the table's Meta (see [MetaLevel] and
// [MetaWeights]), so a file can say how it is to be read.
func ReadRatings(r io.Reader, name string) (*Table, error) {
	rr := newRecordReader(r)
	meta, err := rr.comments()
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, rr.line, err)
	}
	rec, err := rr.read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file (want the header unit,coder,value)", name)
	}
	if err != nil {
		return nil, csvError(name, rr, err)
	}
	header := make([]string, len(rec))
	for i, f := range rec {
		header[i] = string(f)
	}
	idx, err := headerIndex(header)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: header: %w", name, rr.start, err)
	}
	rd := newRatingsReader(name)
	defer rd.stop()
	for {
		rec, err := rr.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(name, rr, err)
		}
		line := rr.start
		if line > math.MaxInt32 {
			return nil, fmt.Errorf("%s:%d: too many lines (at most %d)", name, line, math.MaxInt32)
		}
		unit := trimSpace(rec[idx[0]])
		coder := trimSpace(rec[idx[1]])
		value := trimSpace(rec[idx[2]])
		if len(unit) == 0 {
			return nil, fmt.Errorf("%s:%d: unit: empty", name, line)
		}
		if len(coder) == 0 {
			return nil, fmt.Errorf("%s:%d: coder: empty", name, line)
		}
		if !rr.ascii && (!utf8.Valid(unit) || !utf8.Valid(coder) || !utf8.Valid(value)) {
			return nil, fmt.Errorf("%s:%d: not valid UTF-8", name, line)
		}
		if rd.dup == nil {
			rd.add(unit, coder, value, int32(line))
		}
	}
	t, err := rd.table()
	if t != nil {
		t.Meta = meta
	}
	return t, err
}

// trimSpace is bytes.TrimSpace. A field rarely has space around it, and
// when its first and last bytes are ASCII but not space or control
// characters it has none: a multi-byte space starts with a byte ≥ 0x80 and
// no multi-byte character ends with an ASCII byte.
func trimSpace(b []byte) []byte {
	if n := len(b); n > 0 && b[0] > ' ' && b[0] < utf8.RuneSelf && b[n-1] > ' ' && b[n-1] < utf8.RuneSelf {
		return b
	}
	return bytes.TrimSpace(b)
}

// headerIndex finds the positions of unit, coder and value in the header.
func headerIndex(header []string) ([3]int, error) {
	idx := [3]int{-1, -1, -1}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		k := slices.Index(columns[:], h)
		switch {
		case k < 0:
			return idx, fmt.Errorf("unexpected column %q (want unit,coder,value)", h)
		case idx[k] >= 0:
			return idx, fmt.Errorf("column %q appears twice", h)
		}
		idx[k] = i
	}
	for k, i := range idx {
		if i < 0 {
			return idx, fmt.Errorf("missing column %q (want unit,coder,value)", columns[k])
		}
	}
	return idx, nil
}

func csvError(name string, rr *recordReader, err error) error {
	var pe *parseError
	switch {
	case errors.Is(err, errFieldCount):
		return fmt.Errorf("%s:%d: wrong number of fields (want as many as the header)", name, rr.start)
	case errors.As(err, &pe):
		return fmt.Errorf("%s:%s", name, pe)
	}
	return fmt.Errorf("%s: %w", name, err)
}
