package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
	"unicode/utf16"

	"annotate/internal/domain"
)

func utf16le(s string, bom bool) string {
	var b bytes.Buffer
	if bom {
		b.Write([]byte{0xff, 0xfe})
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b.Write([]byte{byte(u), byte(u >> 8)})
	}
	return b.String()
}

// TestUnreadableFilesAreNamed imports compressed files, archives and
// UTF-16/32 text, with the format detected and with it named, and
// expects an error that names the file and says what to do.
func TestUnreadableFilesAreNamed(t *testing.T) {
	line := `{"id":"d","text":"T.","summaries":[{"id":"s","text":"A."}]}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, line)
	zw.Close()
	for _, tc := range []struct {
		name, content, want string
	}{
		{"data.jsonl.gz", gz.String(), "data.jsonl.gz: the file is gzip-compressed: unpack it and import the file inside"},
		{"data.zip", "PK\x03\x04rest", "data.zip: the file is a zip archive: unpack it"},
		{"data.jsonl", utf16le(line, true), "data.jsonl: the file is UTF-16 little-endian (with a byte order mark) text: save it as UTF-8"},
		{"data.jsonl", utf16le(line, false), "data.jsonl: the file is UTF-16 little-endian text: save it as UTF-8"},
		{"data.jsonl", "\x00\x00\xfe\xff\x00\x00\x00{", "the file is UTF-32 big-endian"},
	} {
		for _, format := range []string{"", FormatNative} {
			_, err := Parse(format, []File{{Name: tc.name, R: strings.NewReader(tc.content)}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s as %q: err = %v, want %q", tc.name, format, err, tc.want)
			}
			if format == FormatNative {
				_, err := StreamNative([]File{{Name: tc.name, R: strings.NewReader(tc.content)}}, Options{}, discardSink{})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s streamed: err = %v, want %q", tc.name, err, tc.want)
				}
			}
		}
	}
	// A UTF-8 byte order mark is simply skipped.
	if _, err := Parse("", []File{{Name: "bom.jsonl", R: strings.NewReader("\ufeff" + line)}}); err != nil {
		t.Errorf("UTF-8 with a byte order mark: %v", err)
	}
}

// TestLongLineRefusedWhileRead: a line past maxLineBytes is refused with
// its file and line, in the parsed and the streamed import, and the lines
// around it are still read.
func TestLongLineRefusedWhileRead(t *testing.T) {
	good := `{"id":"d%d","text":"T.","summaries":[{"id":"s","text":"A."}]}` + "\n"
	long := `{"id":"big","text":"` + strings.Repeat("x", maxLineBytes) + `","summaries":[]}` + "\n"
	content := strings.Replace(good, "%d", "1", 1) + long + strings.Replace(good, "%d", "3", 1)
	want := "big.jsonl:2: the line is longer than 16 MiB"
	if _, err := Parse("", []File{{Name: "big.jsonl", R: strings.NewReader(content)}}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("parsed: %v", err)
	}
	if _, err := StreamNative([]File{{Name: "big.jsonl", R: strings.NewReader(content)}}, Options{}, discardSink{}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("streamed: %v", err)
	}
}

// TestReadLine compares readLine with ReadBytes on lines shorter and
// longer than the reader's buffer.
func TestReadLine(t *testing.T) {
	text := "a\n" + strings.Repeat("b", 100) + "\n\nc"
	br := bufioReader(text, 16)
	var got []string
	for {
		line, tooLong, err := readLine(br, 50)
		got = append(got, string(line)+map[bool]string{true: "<long>"}[tooLong])
		if err != nil {
			break
		}
	}
	want := []string{"a\n", "<long>", "\n", "c"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// discardSink accepts everything a streamed import hands over.
type discardSink struct{}

func (discardSink) Begin(string) error                   { return nil }
func (discardSink) Scales([]domain.Scale) error          { return nil }
func (discardSink) Document(*domain.DocumentInput) error { return nil }
func (discardSink) Labels([]domain.LabelRecord) error    { return nil }

func bufioReader(s string, size int) *bufio.Reader {
	return bufio.NewReaderSize(strings.NewReader(s), size)
}
