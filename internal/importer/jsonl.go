package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// eachJSONLine calls fn for every non-blank line of a JSON Lines file.
// Lines that are not UTF-8 or name a field twice in one object are
// reported (see checkJSON) and not passed on.
func eachJSONLine(name string, r io.Reader, c *collector, fn func(line []byte, at *Error)) {
	br := bufio.NewReaderSize(r, 1<<16)
	empty := true
	for lineNo := 1; !c.full(); lineNo++ {
		line, tooLong, err := readLine(br, maxLineBytes)
		if tooLong {
			empty = false
			c.addf(&Error{File: name, Line: lineNo}, "", "the line is longer than %d MiB, more than any one record needs; it was not read", maxLineBytes>>20)
		} else if len(bytes.TrimSpace(line)) > 0 {
			empty = false
			at := &Error{File: name, Line: lineNo}
			if field, msg, bad := checkJSON(line); bad {
				c.addf(at, field, "%s", msg)
			} else {
				fn(line, at)
			}
		}
		if err == io.EOF {
			if empty {
				c.addf(&Error{File: name}, "", "the file is empty: nothing to import")
			}
			return
		}
		if err != nil {
			c.addf(&Error{File: name, Line: lineNo}, "", "reading: %v", err)
			return
		}
	}
}

// flag01 reads a 0/1 flag written as a number, a string or a boolean.
func flag01(raw json.RawMessage) (bool, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false, false
	}
	switch x := v.(type) {
	case bool:
		return x, true
	case float64:
		if x == 0 || x == 1 {
			return x == 1, true
		}
	case string:
		switch strings.TrimSpace(x) {
		case "0":
			return false, true
		case "1":
			return true, true
		}
	}
	return false, false
}

// rawText shows a raw JSON value in a message.
func rawText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "a missing value"
	}
	return truncate(string(raw), 40)
}

// jsonMessage turns a decoding error into a message naming the field when
// encoding/json knows it.
func jsonMessage(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok && te.Field != "" {
		return fmt.Sprintf("%s: expected %s, got %s", te.Field, te.Type, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// plural picks the word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
