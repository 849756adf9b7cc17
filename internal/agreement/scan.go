package agreement

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// recordReader reads CSV records (RFC 4180: comma-separated, fields
// optionally in double quotes with "" for a quote, CRLF or LF line ends,
// blank lines skipped) without allocating per record: the fields it
// returns are slices of one buffer, valid until the next call. It accepts
// what encoding/csv accepts with its default settings and reports the
// same kinds of errors, naming the line.
type recordReader struct {
	br     *bufio.Reader
	line   int // lines read so far
	start  int // line the current record starts on
	buf    []byte
	ends   []int // end offsets of the fields in buf
	fields [][]byte
	width  int // fields per record, from the first record; 0 before
	// ascii is whether the last record's line was plain ASCII, so that
	// its fields need no UTF-8 check.
	ascii bool
}

func newRecordReader(r io.Reader) *recordReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<16)
	}
	return &recordReader{br: br}
}

// errFieldCount is a record with another number of fields than the first.
var errFieldCount = errors.New("wrong number of fields")

// parseError is a malformed record at a line and column (1-based).
type parseError struct {
	line, col int
	msg       string
}

func (e *parseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// readLine returns the next line without its end, or io.EOF.
func (rr *recordReader) readLine() ([]byte, error) {
	l, err := rr.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		// A line longer than the buffer: gather it.
		long := append([]byte(nil), l...)
		for errors.Is(err, bufio.ErrBufferFull) {
			l, err = rr.br.ReadSlice('\n')
			long = append(long, l...)
		}
		l = long
	}
	if len(l) > 0 && err == io.EOF {
		err = nil
	}
	if len(l) == 0 && err != nil {
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	rr.line++
	if n := len(l); n > 0 && l[n-1] == '\n' {
		l = l[:n-1]
	}
	if n := len(l); n > 0 && l[n-1] == '\r' {
		l = l[:n-1]
	}
	return l, nil
}

// read returns the fields of the next record, io.EOF at the end.
func (rr *recordReader) read() ([][]byte, error) {
	var l []byte
	var err error
	for {
		if l, err = rr.readLine(); err != nil {
			return nil, err
		}
		if len(l) > 0 {
			break
		}
	}
	rr.start = rr.line
	if rr.splitPlain(l) {
		return rr.checkWidth()
	}
	rr.ascii = false
	rr.buf, rr.ends = rr.buf[:0], rr.ends[:0]
	for {
		// One field starts at l[0].
		if len(l) > 0 && l[0] == '"' {
			col := 1
			l = l[1:]
			for {
				i := bytes.IndexByte(l, '"')
				if i < 0 {
					// The quoted field goes on past the line end.
					rr.buf = append(rr.buf, l...)
					rr.buf = append(rr.buf, '\n')
					if l, err = rr.readLine(); err != nil {
						if err == io.EOF {
							return nil, &parseError{line: rr.start, col: col, msg: `extraneous or missing " in quoted-field`}
						}
						return nil, err
					}
					continue
				}
				rr.buf = append(rr.buf, l[:i]...)
				l = l[i+1:]
				if len(l) > 0 && l[0] == '"' {
					rr.buf = append(rr.buf, '"')
					l = l[1:]
					continue
				}
				break
			}
			rr.ends = append(rr.ends, len(rr.buf))
			if len(l) == 0 {
				break
			}
			if l[0] != ',' {
				return nil, &parseError{line: rr.line, col: 1, msg: `extraneous or missing " in quoted-field`}
			}
			l = l[1:]
			continue
		}
		i := bytes.IndexByte(l, ',')
		f := l
		if i >= 0 {
			f = l[:i]
		}
		if bytes.IndexByte(f, '"') >= 0 {
			return nil, &parseError{line: rr.line, col: bytes.IndexByte(f, '"') + 1, msg: `bare " in non-quoted-field`}
		}
		rr.buf = append(rr.buf, f...)
		rr.ends = append(rr.ends, len(rr.buf))
		if i < 0 {
			break
		}
		l = l[i+1:]
	}
	rr.fields = rr.fields[:0]
	from := 0
	for _, e := range rr.ends {
		rr.fields = append(rr.fields, rr.buf[from:e])
		from = e
	}
	return rr.checkWidth()
}

// splitPlain splits a line without quotes into its fields, in place: the
// usual record, read without copying (the fields share the reader's
// buffer, which stays put until the next read). It reports false, having
// done nothing, when the line has a quote. The same pass notes whether
// the line is plain ASCII.
func (rr *recordReader) splitPlain(l []byte) bool {
	fields := rr.fields[:0]
	from := 0
	var high byte
	for i, c := range l {
		high |= c
		switch c {
		case ',':
			fields = append(fields, l[from:i])
			from = i + 1
		case '"':
			return false
		}
	}
	rr.fields = append(fields, l[from:])
	rr.ascii = high < utf8.RuneSelf
	return true
}

// checkWidth checks the record just read against the first one's width.
func (rr *recordReader) checkWidth() ([][]byte, error) {
	if rr.width == 0 {
		rr.width = len(rr.fields)
	} else if len(rr.fields) != rr.width {
		return rr.fields, errFieldCount
	}
	return rr.fields, nil
}
