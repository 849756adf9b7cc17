package agreement

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
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
	// window is the part of br's buffer that nextPlain reads lines from
	// without a call per line; consumed counts the bytes of it read but
	// not yet discarded from br.
	window   []byte
	consumed int
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
	for {
		blank, ok := rr.nextPlain()
		if !ok {
			break
		}
		if !blank {
			return rr.checkWidth()
		}
	}
	// A line with a quote, or one that goes past the bytes buffered:
	// read it through br.
	rr.sync()
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

// sync discards from br the bytes that nextPlain consumed and drops the
// window, before br is read otherwise.
func (rr *recordReader) sync() {
	if rr.consumed > 0 {
		_, _ = rr.br.Discard(rr.consumed) // buffered, so it cannot fail
	}
	rr.window, rr.consumed = nil, 0
}

// Masks of the lowest and the highest bit of each byte of a word.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// zeroBytes has the high bit set in each byte of x that is zero and no
// other bit. Unlike the shorter (x−lsb) &^ x & msb, it flags no byte
// above a zero byte.
func zeroBytes(x uint64) uint64 {
	const low7 = ^uint64(msb)
	return ^((x&low7 + low7) | x | low7)
}

// nextPlain reads the next line from the window when it is whole and has
// no quote (the usual record), splitting it into rr.fields in place: a
// line without quotes is its fields separated by commas. It reads eight
// bytes at a time, finding line ends, commas and quotes with word
// arithmetic and noting whether a byte is outside ASCII, where reading a
// line and splitting it took two calls and a pass per byte. ok is false,
// with nothing read, when the line has a quote or does not end within the
// window; blank is true for a blank line, which is skipped.
func (rr *recordReader) nextPlain() (blank, ok bool) {
	if len(rr.window) == 0 {
		rr.sync()
		rr.window, _ = rr.br.Peek(rr.br.Buffered())
	}
	w := rr.window
	fields := rr.fields[:0]
	from := 0
	var high uint64
	for i := 0; i < len(w); i += 8 {
		var x uint64
		if i+8 <= len(w) {
			x = binary.LittleEndian.Uint64(w[i:])
		} else {
			// The last bytes, padded with zero bytes, which match nothing.
			for j := len(w) - 1; j >= i; j-- {
				x = x<<8 | uint64(w[j])
			}
		}
		nl := zeroBytes(x ^ lsb*'\n')
		quote := zeroBytes(x ^ lsb*'"')
		comma := zeroBytes(x ^ lsb*',')
		end := len(w)
		if nl != 0 {
			// Only the bytes before the line end belong to the line.
			below := nl&-nl - 1
			quote, comma, x = quote&below, comma&below, x&below
			end = i + bits.TrailingZeros64(nl)/8
		}
		if quote != 0 {
			return false, false
		}
		high |= x
		for ; comma != 0; comma &= comma - 1 {
			j := i + bits.TrailingZeros64(comma)/8
			fields = append(fields, w[from:j])
			from = j + 1
		}
		if nl == 0 {
			continue
		}
		rr.line++
		rr.window = w[end+1:]
		rr.consumed += end + 1
		if end > 0 && w[end-1] == '\r' {
			end--
		}
		if end == 0 {
			return true, true
		}
		rr.start = rr.line
		rr.fields = append(fields, w[from:end])
		rr.ascii = high&msb == 0
		return false, true
	}
	return false, false
}

// Keys of a ratings file's comments that Compute's callers read.
const (
	MetaLevel   = "level"   // the level of measurement the values are written for
	MetaWeights = "weights" // the Cohen's κ weights the project's report uses
	MetaSpan    = "span"    // the range of the scale the weights are taken over
)

// maxComments bounds the comment lines before a header.
const maxComments = 64

// comments reads the lines starting with '#' at the start of the input,
// returning those of the form "# key: value" as a map (nil for none).
func (rr *recordReader) comments() (map[string]string, error) {
	var meta map[string]string
	for n := 0; ; n++ {
		b, err := rr.br.Peek(1)
		if err != nil || b[0] != '#' {
			return meta, nil
		}
		if n == maxComments {
			return nil, fmt.Errorf("more than %d comment lines before the header", maxComments)
		}
		l, err := rr.readLine()
		if err != nil {
			return nil, err
		}
		if len(l) > 1024 {
			return nil, errors.New("a comment line longer than 1024 bytes")
		}
		if !utf8.Valid(l) {
			return nil, errors.New("a comment line is not valid UTF-8")
		}
		k, v, ok := bytes.Cut(bytes.TrimSpace(l[1:]), []byte(":"))
		if !ok {
			continue
		}
		if meta == nil {
			meta = map[string]string{}
		}
		meta[string(bytes.ToLower(bytes.TrimSpace(k)))] = string(bytes.TrimSpace(v))
	}
}
