package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
)

// role is what one input file is, as told by its content.
type role int

const (
	roleUnknown role = iota
	roleNative
	roleTofuFactual
	roleTofuKeyPoints
	roleTofuSplit
	roleMADISSE
	roleMADISSESample
	roleSummEdits
)

// String names the role in FileStats and messages.
func (r role) String() string {
	return [...]string{
		roleUnknown:       "unknown",
		roleNative:        "native",
		roleTofuFactual:   "tofueval factual labels",
		roleTofuKeyPoints: "tofueval key points",
		roleTofuSplit:     "tofueval dev/test split",
		roleMADISSE:       "madisse ambiguity labels",
		roleMADISSESample: "madisse sample claims",
		roleSummEdits:     "summedits",
	}[r]
}

// format is the import format a role belongs to.
func (r role) format() string {
	switch r {
	case roleNative:
		return FormatNative
	case roleTofuFactual, roleTofuKeyPoints, roleTofuSplit:
		return FormatTofuEval
	case roleMADISSE, roleMADISSESample:
		return FormatMADISSE
	case roleSummEdits:
		return FormatSummEdits
	}
	return ""
}

// sniffSize is how much of a file detection looks at.
const sniffSize = 1 << 16

// sniff tells a file's role from its first bytes without consuming them.
func sniff(br *bufio.Reader) role {
	head, _ := br.Peek(sniffSize)
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 {
		return roleUnknown
	}
	switch head[0] {
	case '[':
		return roleSummEdits
	case '{':
		keys, firstLineWhole := topKeys(head)
		has := func(k string) bool { return slices.Contains(keys, k) }
		switch {
		case has("claim") && has("doc"):
			return roleMADISSESample
		case has("summary") && has("doc"), has("ambiguity"), has("sub-category"):
			return roleMADISSE
		case has("id") && firstLineWhole:
			return roleNative
		case (has("dev") || has("test")) && !firstLineWhole:
			return roleTofuSplit
		case has("id"), has("summaries"), has("turns"), has("sentences"):
			return roleNative
		}
		return roleUnknown
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	header, err := csv.NewReader(bytes.NewReader(line)).Read()
	if err != nil {
		return roleUnknown
	}
	for i := range header {
		header[i] = string(bytes.ToLower(bytes.TrimSpace([]byte(header[i]))))
	}
	switch {
	case slices.Contains(header, "summ_sent") && slices.Contains(header, "sent_label"):
		return roleTofuFactual
	case slices.Contains(header, "key_points"):
		return roleTofuKeyPoints
	}
	return roleUnknown
}

// topKeys lists the top-level keys of the JSON object at the start of b, as
// far as b goes, and whether the object closes on its first line (a JSON
// Lines record rather than a pretty-printed document).
func topKeys(b []byte) (keys []string, firstLineWhole bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	depth := 0
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys, false
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				depth++
				expectKey = t == '{' && depth == 1
				continue
			case '}', ']':
				depth--
				if depth == 0 {
					end := dec.InputOffset()
					return keys, !bytes.Contains(b[:end], []byte("\n"))
				}
				expectKey = depth == 1
				continue
			}
		case string:
			if depth == 1 && expectKey {
				keys = append(keys, t)
				expectKey = false
				continue
			}
		}
		// A value at depth 1 ends; the next token is a key again. Values
		// nested deeper are skipped by the depth count.
		if depth == 1 {
			expectKey = true
		}
	}
}
