package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"annotate/internal/domain"
)

// parseNative reads a native JSON Lines file: one tasks.DocumentInput per
// line, blank lines ignored, unknown fields rejected. A file that starts
// with a raw export's header holds annotators' labels instead, which go to
// c.labels.
func parseNative(name string, r io.Reader, c *collector) []parsed {
	var out []parsed
	var f nativeFile
	eachJSONLine(name, r, c, func(line []byte, at *Error) {
		if !f.line(line, at, c, nil) {
			return
		}
		if doc, ok := decodeNativeLine(line, at, c); ok {
			out = append(out, parsed{doc: doc, at: *at})
		}
	})
	f.finish(c)
	return joinContinuations(out)
}

// nativeFile follows the records of one native file that are not
// documents: rating scale definitions, an export's header and end record,
// and the rows of a raw export (annotators' labels, for c.labels).
type nativeFile struct {
	// emit, when set, takes the labels of a raw export row by row (see
	// rawLabels.emit).
	emit    func(located)
	raw     *rawLabels
	ex      exportFrame
	last    Error
	started bool
}

// line takes one line of the file and reports whether it is a document
// for the caller to decode. Scales read from it are handed to scales when
// it is not nil.
func (f *nativeFile) line(line []byte, at *Error, c *collector, scales func([]domain.Scale)) bool {
	f.last = *at
	first := !f.started
	f.started = true
	if f.ex.end(line, at, c) {
		return false
	}
	if f.raw != nil {
		f.ex.records++
		f.raw.row(line, at, c)
		return false
	}
	if n := len(c.scales); scalesLine(line, at, c) {
		if scales != nil && len(c.errs) == 0 {
			scales(c.scales[n:])
		}
		return false
	}
	what, version := exportHeader(line, at, c, first)
	switch what {
	case "":
	case "gold":
		f.ex.begin(version)
		return false
	case "raw":
		f.ex.begin(version)
		f.raw = &rawLabels{emit: f.emit}
		return false
	default:
		return false
	}
	f.ex.records++
	return true
}

// finish checks the file's end record and hands over the labels of a raw
// export.
func (f *nativeFile) finish(c *collector) {
	f.ex.finish(&f.last, c)
	if f.raw != nil {
		c.labels = append(c.labels, f.raw.out...)
	}
}

// isKind reports whether a line may be a record of the given kind (an
// export's header or end record), so that other lines are not decoded to
// find out: it needs a kind key and the kind's name as a whole JSON
// string, unless escapes could spell them.
func isKind(line []byte, kind string) bool {
	return mentions(line, "kind") && (bytes.Contains(line, []byte(`"`+kind+`"`)) || bytes.Contains(line, []byte(`\u`)))
}

// exportFrame follows the header and end records of an export (see
// docs/export.md): from export_version 2 on, an export ends with a record
// counting the records before it, and a file without it was cut short.
type exportFrame struct {
	version int  // export_version of the header; 0 without one
	records int  // data records since the header
	ended   bool // the end record was read
}

// end reports whether line is an end record, or a record after one,
// checking it.
func (f *exportFrame) end(line []byte, at *Error, c *collector) bool {
	var end struct {
		Kind    string `json:"kind"`
		Records *int   `json:"records"`
	}
	if isKind(line, "end") && json.Unmarshal(line, &end) == nil && end.Kind == "end" {
		switch {
		case f.version == 0:
			c.addf(at, "kind", "an end record without an export header")
		case f.ended:
			c.addf(at, "kind", "a second end record")
		case end.Records == nil || *end.Records != f.records:
			c.addf(at, "records", "the export says it has %s records, but %d came before this line: it is not the file that was exported", countText(end.Records), f.records)
		}
		f.ended = true
		return true
	}
	if f.ended {
		c.addf(at, "", "a record after the export's end record")
		return true
	}
	return false
}

// begin starts counting after an export's header of the given version.
func (f *exportFrame) begin(version int) {
	f.version = max(version, 1)
	f.records = 0
}

func countText(n *int) string {
	if n == nil {
		return "no count of"
	}
	return fmt.Sprint(*n)
}

// finish reports an export of version 2 or later without its end record.
func (f *exportFrame) finish(at *Error, c *collector) {
	if f.version >= 2 && !f.ended {
		c.addf(at, "", "the export has no end record: the file was cut short (download or copy it again)")
	}
}

// scalesLine reports whether line defines rating scales
// ({"scales":[...]}), and collects them after checking each.
func scalesLine(line []byte, at *Error, c *collector) bool {
	if !mentions(line, "scales") {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	if _, ok := probe["scales"]; !ok {
		return false
	}
	var def struct {
		Scales []domain.Scale `json:"scales"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&def); err != nil {
		var v any
		if json.Unmarshal(line, &v) == nil {
			if field, msg, ok := misfit(v, reflect.TypeOf(def), ""); ok {
				c.addf(at, field, "%s", msg)
				return true
			}
		}
		c.addf(at, "scales", "%s", jsonMessage(err))
		return true
	}
	if len(def.Scales) == 0 {
		c.addf(at, "scales", "no scale defined")
	}
	for i, sc := range def.Scales {
		if field, err := sc.Validate(); err != nil {
			c.addf(at, fmt.Sprintf("scales[%d].%s", i, field), "%s", domain.ErrorMessage(err))
			continue
		}
		if first, dup := c.scaleAt[sc.Name]; dup {
			c.addf(at, fmt.Sprintf("scales[%d].name", i), "scale %q is already defined at %s", sc.Name, first)
			continue
		}
		if c.scaleAt == nil {
			c.scaleAt = map[string]string{}
		}
		c.scaleAt[sc.Name] = locString(at)
		c.scales = append(c.scales, sc)
	}
	return true
}

// exportHeader returns what export line is the header record of (kind
// "export"; see docs/export.md) and its export_version, or "" when it is
// not a header. A gold
// export's header is skipped; a raw export's header, as the first record,
// makes the rest of the file rows of labels; other exports cannot be
// imported, which is reported.
func exportHeader(line []byte, at *Error, c *collector, first bool) (string, int) {
	var h struct {
		Kind    string `json:"kind"`
		What    string `json:"what"`
		Version int    `json:"export_version"`
	}
	if !isKind(line, "export") || json.Unmarshal(line, &h) != nil || h.Kind != "export" {
		return "", 0
	}
	switch {
	case h.What == "gold":
	case h.What == "raw" && first:
	case h.What == "raw":
		c.addf(at, "what", "a raw export's header must be the first record of its file")
	default:
		c.addf(at, "what", "this is a %q export; only gold and raw exports can be imported", h.What)
	}
	return h.What, h.Version
}

// joinContinuations folds a record that repeats an earlier document's id
// and carries no content of its own (no text, sentences or turns) into
// that earlier document, as more of its summaries and key facts. A gold
// export writes one record per summary and the document's content only
// in the first.
func joinContinuations(docs []parsed) []parsed {
	first := map[string]int{}
	out := docs[:0]
	for _, p := range docs {
		id := strings.TrimSpace(p.doc.ExternalID)
		i, seen := first[id]
		if seen && id != "" && p.doc.Text == "" && len(p.doc.Sentences) == 0 && len(p.doc.Turns) == 0 {
			q := &out[i]
			for len(q.summaryAt) < len(q.doc.Summaries) {
				q.summaryAt = append(q.summaryAt, q.at)
			}
			for range p.doc.Summaries {
				q.summaryAt = append(q.summaryAt, p.at)
			}
			q.doc.Summaries = append(q.doc.Summaries, p.doc.Summaries...)
			q.doc.KeyFacts = append(q.doc.KeyFacts, p.doc.KeyFacts...)
			continue
		}
		if !seen {
			first[id] = len(out)
		}
		out = append(out, p)
	}
	return out
}

// decodeNativeLine decodes one line strictly, reporting a failure with the
// path of the offending field.
func decodeNativeLine(line []byte, at *Error, c *collector) (domain.DocumentInput, bool) {
	var doc domain.DocumentInput
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	err := dec.Decode(&doc)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			c.addf(at, "", "more than one JSON value on the line; each line holds one document")
			return doc, false
		}
		return doc, true
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg := strings.TrimPrefix(err.Error(), "json: ")
		if syn != nil {
			msg = fmt.Sprintf("invalid JSON at column %d: %s", syn.Offset, msg)
		} else {
			msg = "invalid JSON: the line ends inside a value"
		}
		c.addf(at, "", "%s", msg)
		return doc, false
	}
	// The value is well-formed JSON that does not fit the record: walk it
	// to name the field.
	var v any
	gen := json.NewDecoder(bytes.NewReader(line))
	gen.UseNumber()
	if gen.Decode(&v) == nil {
		if field, msg, ok := misfit(v, reflect.TypeFor[domain.DocumentInput](), ""); ok {
			c.addf(at, field, "%s", msg)
			return doc, false
		}
	}
	c.addf(at, "", "%s", strings.TrimPrefix(err.Error(), "json: "))
	return doc, false
}

// misfit finds the first place where the generic JSON value v does not fit
// the Go type t, as encoding/json would decode it with unknown fields
// disallowed: a field the type does not have, or a value of the wrong kind.
func misfit(v any, t reflect.Type, path string) (field, msg string, found bool) {
	if v == nil {
		return "", "", false // null leaves any field at its zero value
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return path, "expected an object, got " + jsonKind(v), true
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f, ok := jsonField(t, k)
			if !ok {
				return joinField(path, k), "unknown field", true
			}
			if field, msg, found := misfit(obj[k], f.Type, joinField(path, k)); found {
				return field, msg, true
			}
		}
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			return path, "expected an array, got " + jsonKind(v), true
		}
		for i, e := range arr {
			if field, msg, found := misfit(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); found {
				return field, msg, true
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return path, "expected a string, got " + jsonKind(v), true
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return path, "expected true or false, got " + jsonKind(v), true
		}
	case reflect.Int, reflect.Int64, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return path, "expected a number, got " + jsonKind(v), true
		}
	}
	return "", "", false
}

// jsonField finds the struct field that encoding/json decodes key into:
// the exact json name, else a case-insensitive match.
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	var fold *reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name == key {
			return f, true
		}
		if fold == nil && strings.EqualFold(name, key) {
			fold = &f
		}
	}
	if fold != nil {
		return *fold, true
	}
	return reflect.StructField{}, false
}

// jsonKind names the kind of a generic JSON value for messages.
func jsonKind(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("string %q", truncate(x, 40))
	case json.Number:
		return "number " + x.String()
	case bool:
		return fmt.Sprint(x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}

// truncate shortens s to at most n runes for messages.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
