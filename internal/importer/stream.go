package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"annotate/internal/domain"
)

// Sink receives what a streamed import reads, in file order, to write it
// at once (tasks.ImportWriter is one).
type Sink interface {
	// Begin is called once the error taxonomy is known, before anything
	// else.
	Begin(errorTaxonomy string) error
	Scales([]domain.Scale) error
	Document(*domain.DocumentInput) error
	Labels([]domain.LabelRecord) error
}

// Streamable reports whether files can be imported with StreamNative: all
// of them seekable (read twice) and, when format is "", all of them
// native.
func Streamable(format string, files []File) bool {
	format = strings.ToLower(strings.TrimSpace(format))
	if format != "" && format != FormatNative {
		return false
	}
	for _, f := range files {
		rs, ok := f.R.(io.ReadSeeker)
		if !ok {
			return false
		}
		if format == "" {
			br := bufio.NewReaderSize(rs, sniffSize)
			skipBOM(br)
			head, _ := br.Peek(sniffSize)
			empty := len(strings.TrimSpace(string(head))) == 0
			role := sniff(br)
			if _, err := rs.Seek(0, io.SeekStart); err != nil || empty || role != roleNative {
				return false
			}
		}
	}
	return true
}

// StreamNative imports native JSON Lines files in bounded memory: a first
// pass collects the error types (to choose the taxonomy, as Parse does),
// and the second checks each record and hands it to the sink as soon as
// its line is read, so that only one document is held at a time (plus the
// ids seen, to find repeats). The rows of raw exports (annotators' labels
// of summaries in the project or the import) are read after the other
// files, each label checked and handed over as its row is read. Problems
// are collected as in Parse; the caller must discard what the sink wrote
// when StreamNative returns an error (tasks.Store.ImportStream rolls its
// transaction back). The Result carries no documents.
func StreamNative(files []File, opts Options, sink Sink) (*Result, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("no files to import")
	}
	c := &collector{}
	var types []string
	seenType := map[string]bool{}
	var order, raw []int // files in the order they are read: raw exports last
	var unread Errors
	for _, f := range files {
		rs, ok := f.R.(io.ReadSeeker)
		if !ok {
			return nil, fmt.Errorf("%s: a streamed import reads its files twice", f.Name)
		}
		head := make([]byte, 8)
		n, _ := io.ReadFull(rs, head)
		if why := unreadable(head[:n]); why != "" {
			unread = append(unread, &Error{File: f.Name, Message: why})
		}
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	if len(unread) > 0 {
		return nil, unread
	}
	for i, f := range files {
		rs := f.R.(io.ReadSeeker)
		if rawExport(rs) {
			raw = append(raw, i)
		} else {
			order = append(order, i)
		}
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		for _, t := range errorTypesIn(rs) {
			if !seenType[t] {
				seenType[t] = true
				types = append(types, t)
			}
		}
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	res := &Result{Format: FormatNative, ErrorTaxonomy: inferPreset(types), Stats: make([]FileStats, len(files))}
	if res.ErrorTaxonomy == "" && len(types) > 0 {
		c.warnf("error types %s match no built-in taxonomy; kept as written", strings.Join(types, ", "))
	}
	if err := sink.Begin(res.ErrorTaxonomy); err != nil {
		return nil, err
	}
	r := newResolver(c, res.ErrorTaxonomy)
	docs, labels := 0, 0
	var sinkErr error
	emit := func(l located) {
		if sinkErr != nil {
			return
		}
		if l.rec.Summary != r.current {
			clear(r.labels) // the rows of a summary come together
		}
		r.record(&l)
		labels++
		if len(c.errs) == 0 {
			sinkErr = sink.Labels([]domain.LabelRecord{l.rec})
		}
	}
	for _, i := range append(order, raw...) {
		f := files[i]
		res.Stats[i] = FileStats{File: f.Name, Role: roleNative.String()}
		st := &res.Stats[i]
		rd, done := withProgress(opts.Progress, filepath.Base(f.Name), f.Size, f.R)
		br := bufio.NewReaderSize(rd, sniffSize)
		skipBOM(br)
		nf := nativeFile{emit: emit}
		eachJSONLine(f.Name, br, c, func(line []byte, at *Error) {
			if sinkErr != nil {
				return
			}
			if !nf.line(line, at, c, func(sc []domain.Scale) { sinkErr = sink.Scales(sc) }) {
				return
			}
			doc, ok := decodeNativeLine(line, at, c)
			if !ok {
				return
			}
			p := parsed{doc: doc, at: *at}
			id := strings.TrimSpace(doc.ExternalID)
			if _, seen := r.docIDs[id]; seen && id != "" && doc.Text == "" && len(doc.Sentences) == 0 && len(doc.Turns) == 0 {
				p.doc.Continuation = true
			}
			r.document(&p)
			st.Records++
			if len(c.errs) > 0 {
				return // keep checking; nothing more is written
			}
			countDocument(st, &p.doc)
			docs++
			sinkErr = sink.Document(&p.doc)
		})
		done()
		nf.finish(c)
		if sinkErr != nil {
			return nil, sinkErr
		}
	}
	res.Labels = r.records(c.labels)
	res.Scales = c.scales
	if len(c.errs) == 0 && docs == 0 && labels == 0 && len(res.Labels) == 0 && len(res.Scales) == 0 {
		names := make([]string, len(files))
		for i, f := range files {
			names[i] = f.Name
		}
		c.addf(&Error{File: strings.Join(names, ", ")}, "", "no documents, labels or scales to import")
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	if err := sink.Labels(res.Labels); err != nil {
		return nil, err
	}
	res.Warnings = c.warns
	return res, nil
}

// rawExport reports whether a file is a raw export: its first record is
// a raw export's header.
func rawExport(r io.Reader) bool {
	br := bufio.NewReaderSize(r, sniffSize)
	skipBOM(br)
	for {
		line, tooLong, err := readLine(br, maxLineBytes)
		if tooLong {
			return false
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var h struct {
				Kind string `json:"kind"`
				What string `json:"what"`
			}
			return json.Unmarshal(line, &h) == nil && h.Kind == "export" && h.What == "raw"
		}
		if err != nil {
			return false
		}
	}
}

// errorTypesIn lists the error types written in a native file, reading
// each line loosely: the checking pass reports what is malformed.
func errorTypesIn(r io.Reader) []string {
	type gold struct {
		ErrorTypes []string `json:"error_types"`
	}
	var probe struct {
		ErrorTypes []string `json:"error_types"` // a raw export row
		Summaries  []struct {
			Gold      *gold `json:"gold"`
			Sentences []struct {
				Gold   *gold  `json:"gold"`
				Labels []gold `json:"labels"`
			} `json:"sentences"`
		} `json:"summaries"`
	}
	var out []string
	seen := map[string]bool{}
	add := func(ts []string) {
		for _, t := range ts {
			if t = strings.TrimSpace(t); t != "" && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, _, err := readLine(br, maxLineBytes) // a line too long comes back empty: the checking pass reports it
		probe.ErrorTypes, probe.Summaries = nil, nil
		if mentions(line, "error_types") && json.Unmarshal(line, &probe) == nil {
			add(probe.ErrorTypes)
			for _, s := range probe.Summaries {
				if s.Gold != nil {
					add(s.Gold.ErrorTypes)
				}
				for _, sent := range s.Sentences {
					if sent.Gold != nil {
						add(sent.Gold.ErrorTypes)
					}
					for _, l := range sent.Labels {
						add(l.ErrorTypes)
					}
				}
			}
		}
		if err != nil {
			return out
		}
	}
}
