package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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
	// roleTranscripts is a JSON Lines file of {doc_id, turns}: the
	// transcripts of a TofuEval import; a native file in a TofuEval import
	// becomes roleNativeTranscripts.
	roleTranscripts
	roleNativeTranscripts
)

// String names the role in FileStats and messages.
func (r role) String() string {
	return [...]string{
		roleUnknown:           "unknown",
		roleNative:            "native",
		roleTofuFactual:       "tofueval factual labels",
		roleTofuKeyPoints:     "tofueval key points",
		roleTofuSplit:         "tofueval dev/test split",
		roleMADISSE:           "madisse ambiguity labels",
		roleMADISSESample:     "madisse sample claims",
		roleSummEdits:         "summedits",
		roleTranscripts:       "tofueval transcripts",
		roleNativeTranscripts: "tofueval transcripts (native documents)",
	}[r]
}

// format is the import format a role belongs to.
func (r role) format() string {
	switch r {
	case roleNative:
		return FormatNative
	case roleTofuFactual, roleTofuKeyPoints, roleTofuSplit, roleTranscripts, roleNativeTranscripts:
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
		case has("kind") && has("exported_at") && firstLineWhole:
			return roleNative // the header of an export
		case has("scales") && len(keys) == 1:
			return roleNative // rating scales defined before the documents
		case has("doc_id") && has("turns") && !has("summaries"):
			return roleTranscripts
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

// decideFormat checks that the files fit the requested format, or agree
// on one when none was requested.
func decideFormat(format string, inputs []input) (string, error) {
	if format == FormatNative || format == FormatSummEdits {
		for i := range inputs {
			if format == FormatNative {
				inputs[i].role = roleNative
			} else {
				inputs[i].role = roleSummEdits
			}
		}
		return format, nil
	}
	var unknown []string
	found := map[string][]string{}
	for _, in := range inputs {
		if head, _ := in.r.Peek(sniffSize); len(bytes.TrimSpace(head)) == 0 {
			return "", Errors{{File: in.name, Message: "the file is empty: nothing to import"}}
		}
		f := in.role.format()
		if f == "" {
			unknown = append(unknown, in.name)
			continue
		}
		found[f] = append(found[f], in.name)
	}
	if len(unknown) > 0 {
		var errs Errors
		for _, name := range unknown {
			errs = append(errs, &Error{File: name, Message: fmt.Sprintf("cannot tell the format from the content; name the format (%s)", strings.Join(Formats, ", "))})
		}
		return "", errs
	}
	// The MADISSE file joins a TofuEval import as its transcripts.
	if len(found[FormatTofuEval]) > 0 || format == FormatTofuEval {
		for _, in := range inputs {
			if in.role == roleMADISSESample {
				return "", fmt.Errorf("%s holds MADISSE sample claims, which cannot join a TofuEval import; import it on its own", in.name)
			}
		}
		found[FormatTofuEval] = append(found[FormatTofuEval], found[FormatMADISSE]...)
		delete(found, FormatMADISSE)
		// Native documents join it as transcripts.
		for i := range inputs {
			if inputs[i].role == roleNative {
				inputs[i].role = roleNativeTranscripts
			}
		}
		found[FormatTofuEval] = append(found[FormatTofuEval], found[FormatNative]...)
		delete(found, FormatNative)
	}
	if format != "" {
		for f, names := range found {
			if f != format {
				return "", fmt.Errorf("%s %s not in the %s format (%s %s)", strings.Join(names, ", "), plural(len(names), "is", "are"), format, plural(len(names), "it looks like", "they look like"), f)
			}
		}
		return format, nil
	}
	if len(found) > 1 {
		var parts []string
		for _, f := range Formats {
			if names := found[f]; len(names) > 0 {
				parts = append(parts, f+": "+strings.Join(names, ", "))
			}
		}
		return "", fmt.Errorf("the files are in different formats (%s); import them separately", strings.Join(parts, "; "))
	}
	for f := range found {
		return f, nil
	}
	return "", fmt.Errorf("no files to import")
}
