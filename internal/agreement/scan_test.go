package agreement

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestRecordReaderMatchesCSV reads random CSV text, quoted fields, blank
// lines, CRLF, non-ASCII and malformed quotes among plain lines, through
// buffers of several sizes, so that lines straddle the end of the buffered
// bytes, and checks records, their lines and where errors come against
// encoding/csv.
func TestRecordReaderMatchesCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := range 300 {
		text := randomCSV(rng)
		for _, size := range []int{16, 37, 4096} {
			rr := newRecordReader(bufio.NewReaderSize(strings.NewReader(text), size))
			cr := csv.NewReader(strings.NewReader(text))
			for rec := 0; ; rec++ {
				want, wantErr := cr.Read()
				got, gotErr := rr.read()
				if (wantErr == nil) != (gotErr == nil) || errors.Is(wantErr, io.EOF) != errors.Is(gotErr, io.EOF) {
					t.Fatalf("text %d, buffer %d, record %d: error %v, encoding/csv %v\n%q", n, size, rec, gotErr, wantErr, text)
				}
				if wantErr != nil {
					break
				}
				if !slices.EqualFunc(got, want, func(a []byte, b string) bool { return string(a) == b }) {
					t.Fatalf("text %d, buffer %d, record %d: %q, encoding/csv %q\n%q", n, size, rec, got, want, text)
				}
				if line, _ := cr.FieldPos(0); rr.start != line {
					t.Fatalf("text %d, buffer %d, record %d: line %d, encoding/csv %d", n, size, rec, rr.start, line)
				}
				if rr.ascii && strings.ContainsFunc(strings.Join(want, ""), func(r rune) bool { return r >= 0x80 }) {
					t.Fatalf("text %d, buffer %d, record %d: %q said to be ASCII", n, size, rec, want)
				}
			}
		}
	}
}

func randomCSV(rng *rand.Rand) string {
	pieces := []string{"a", "unit-7", "c1", "yes", "2.5", "é", "日本", " ", "\r", "x\ty"}
	var b strings.Builder
	fields := 1 + rng.IntN(4)
	for range rng.IntN(40) {
		switch rng.IntN(12) {
		case 0:
			b.WriteString("\n") // a blank line
			continue
		case 1:
			b.WriteString("\r\n")
			continue
		}
		nf := fields
		if rng.IntN(30) == 0 {
			nf++ // a record of the wrong width
		}
		for f := range nf {
			if f > 0 {
				b.WriteByte(',')
			}
			switch rng.IntN(10) {
			case 0:
				b.WriteString(`"q,""` + pieces[rng.IntN(len(pieces))] + "\n" + `x"`) // quoted, over two lines
			case 1:
				b.WriteString(`"` + pieces[rng.IntN(len(pieces)-2)] + `"`)
			case 2:
				if rng.IntN(10) == 0 {
					b.WriteString(`a"b`) // a bare quote: an error
				}
			default:
				for range rng.IntN(4) {
					p := pieces[rng.IntN(len(pieces))]
					if p == "\r" {
						p = "r"
					}
					b.WriteString(p)
				}
			}
		}
		if rng.IntN(4) == 0 {
			b.WriteString("\r\n")
		} else {
			b.WriteString("\n")
		}
	}
	if rng.IntN(3) == 0 {
		b.WriteString("last,line") // no line end
	}
	return b.String()
}
