package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// checkJSON checks what encoding/json lets pass silently: bytes that are
// not UTF-8 (which it turns into U+FFFD) and an object naming a field
// twice (where the last one wins). It returns the path of the offending
// value, in the importer's field notation, and what is wrong. It does not
// check the syntax otherwise; the decoder that follows reports that.
//
// The check uses the jsontext decoder of go-json-experiment/json, which
// rejects both by default and says where, instead of a hand-written
// scanner.
func checkJSON(data []byte) (field, msg string, bad bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for {
		_, err := dec.ReadToken()
		if err == io.EOF {
			return "", "", false
		}
		if err == nil {
			continue
		}
		var se *jsontext.SyntacticError
		if !errors.As(err, &se) {
			return "", "", false
		}
		switch {
		case errors.Is(se.Err, jsontext.ErrDuplicateName):
			return pointerField(se.JSONPointer), "the field is given twice in one object", true
		case strings.Contains(se.Err.Error(), "invalid UTF-8"):
			i := invalidUTF8At(data)
			return pointerField(se.JSONPointer), fmt.Sprintf("invalid UTF-8 (byte %#02x at offset %d); the file must be UTF-8", data[i], i), true
		}
		return "", "", false
	}
}

// invalidUTF8At is the offset of the first byte that is not UTF-8; 0
// when there is none.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

// pointerField turns a JSON Pointer (/summaries/0/text) into the
// importer's field notation (summaries[0].text).
func pointerField(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}
