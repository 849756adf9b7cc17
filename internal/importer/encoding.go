package importer

import (
	"bufio"
	"bytes"
	"fmt"
)

// maxLineBytes bounds one line of a JSON Lines file. A line past it is
// refused as it is read, before it is held in memory whole, so that a
// hostile or broken file (one 60 MB line) cannot make the server hold it:
// a document with its summaries, labels and key facts stays far below.
const maxLineBytes = 16 << 20

// readLine reads one line, its newline included, like ReadBytes('\n'). A
// line longer than limit is read to its end and dropped: line is nil and
// tooLong true.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		frag, e := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		return line, tooLong, e
	}
}

// magic lists the first bytes of compressed and archive formats, which an
// import cannot read: the file must be unpacked first.
var magic = []struct {
	prefix []byte
	name   string
}{
	{[]byte{0x1f, 0x8b}, "gzip-compressed"},
	{[]byte("PK\x03\x04"), "a zip archive"},
	{[]byte("BZh"), "bzip2-compressed"},
	{[]byte{0xfd, '7', 'z', 'X', 'Z', 0x00}, "xz-compressed"},
	{[]byte{0x28, 0xb5, 0x2f, 0xfd}, "zstd-compressed"},
	{[]byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}, "a 7-Zip archive"},
}

// unreadable says why a file whose first bytes are head cannot be read
// as UTF-8 text, or "" when nothing is wrong with them: compressed files
// and archives, and UTF-16 or UTF-32 text (with a byte order mark, or
// recognised by the zero bytes every ASCII character then carries).
func unreadable(head []byte) string {
	for _, m := range magic {
		if bytes.HasPrefix(head, m.prefix) {
			return fmt.Sprintf("the file is %s: unpack it and import the file inside", m.name)
		}
	}
	enc := ""
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe, 0, 0}):
		enc = "UTF-32 little-endian (with a byte order mark)"
	case bytes.HasPrefix(head, []byte{0, 0, 0xfe, 0xff}):
		enc = "UTF-32 big-endian (with a byte order mark)"
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		enc = "UTF-16 little-endian (with a byte order mark)"
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		enc = "UTF-16 big-endian (with a byte order mark)"
	case len(head) >= 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0:
		enc = "UTF-16 little-endian"
	case len(head) >= 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0:
		enc = "UTF-16 big-endian"
	}
	if enc != "" {
		return "the file is " + enc + " text: save it as UTF-8 and import it again"
	}
	return ""
}

// checkReadable returns an error for each file whose first bytes cannot
// be read as UTF-8 text.
func checkReadable(inputs []input) error {
	var errs Errors
	for _, in := range inputs {
		head, _ := in.r.Peek(8)
		if why := unreadable(head); why != "" {
			errs = append(errs, &Error{File: in.name, Message: why})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
