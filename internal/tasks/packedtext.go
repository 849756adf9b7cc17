package tasks

import (
	"errors"
	"strconv"
	"strings"
)

// packedText is an SQL expression giving the text of each of cols (an
// expression each; NULL counts as "") as one value: the length in bytes
// of each, followed by a comma, then a colon, then the texts one after
// another. unpackText reads it back. A query reads many mostly-NULL
// columns faster as one: the driver fetches every column of every row,
// a call into SQLite each, and the sentences of an export carried ten
// gold columns, NULL on most rows.
func packedText(cols ...string) string {
	// One format() call builds the value: each || would copy the value
	// so far again. octet_length and %d give 0, and %s "", for NULL.
	lens := make([]string, len(cols))
	texts := make([]string, len(cols))
	for i, c := range cols {
		lens[i] = "octet_length(" + c + ")"
		texts[i] = c
	}
	return "format('" + strings.Repeat("%d,", len(cols)) + ":" + strings.Repeat("%s", len(cols)) + "', " +
		strings.Join(lens, ", ") + ", " + strings.Join(texts, ", ") + ")"
}

var errPacked = errors.New("malformed packed columns")

// unpackText reads a value of packedText into out, one text per column;
// the texts share s's memory.
func unpackText(s string, out []string) error {
	var n [16]int
	if len(out) > len(n) {
		return errPacked
	}
	rest := s
	for i := range out {
		j := strings.IndexByte(rest, ',')
		if j < 0 {
			return errPacked
		}
		v, err := strconv.Atoi(rest[:j])
		if err != nil || v < 0 {
			return errPacked
		}
		n[i], rest = v, rest[j+1:]
	}
	if len(rest) == 0 || rest[0] != ':' {
		return errPacked
	}
	rest = rest[1:]
	for i := range out {
		if n[i] > len(rest) {
			return errPacked
		}
		out[i], rest = rest[:n[i]], rest[n[i]:]
	}
	if rest != "" {
		return errPacked
	}
	return nil
}
