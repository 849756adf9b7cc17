// Package importer reads annotation data from files into
// tasks.DocumentInput values, ready for the store to write in one
// transaction. It touches no database.
//
// Four formats are understood: the project's own JSON Lines ("native",
// described in docs/import-format.md), the TofuEval MeetingBank CSVs joined
// with the MADISSE transcripts ("tofueval"), the MADISSE ambiguity file on
// its own ("madisse") and the SummEdits JSON arrays ("summedits"). Parse
// checks everything before it returns: on any problem it returns every
// problem found (up to a bound) as Errors and no documents, so that an
// import is all or nothing.
package importer

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"annotate/internal/domain"
)

// Format names accepted by Parse.
const (
	FormatNative    = "native"
	FormatTofuEval  = "tofueval"
	FormatMADISSE   = "madisse"
	FormatSummEdits = "summedits"
)

// Formats lists the format names, for flags and help text.
var Formats = []string{FormatNative, FormatTofuEval, FormatMADISSE, FormatSummEdits}

// File is one input: a name for messages and format hints (a SummEdits
// file's domain comes from its name) and its content.
type File struct {
	Name string
	R    io.Reader
	// Size is the length in bytes, for the progress bar; 0 if unknown.
	Size int64
}

// Options tune a parse.
type Options struct {
	// Progress, when not nil, receives a progress bar per file; pass a
	// terminal, never a log.
	Progress io.Writer
	// Partial declares files of a published format that leave out some of
	// its columns on purpose (TofuEval's annotation_id, exp or type);
	// without it those columns are required, so that nothing the release
	// holds is lost without a word.
	Partial bool
	// SkipDocuments names documents of a published format that may be left
	// out for want of their source text (TofuEval rows whose transcript is
	// not given); any other such document refuses the import, unless
	// Partial is set.
	SkipDocuments []string
}

// Result is what a successful parse produced.
type Result struct {
	// Documents are fully resolved: prose documents have Sentences,
	// dialogues have Turns, every summary has Sentences, taxonomy values
	// are codes, and document and summary ids are unique in the input.
	Documents []domain.DocumentInput
	// Labels are annotators' labels read from raw export rows, for
	// summaries in Documents or already in the project; labels given
	// inside documents stay there.
	Labels []domain.LabelRecord
	// Scales are rating scales the files define ({"scales":[...]} lines).
	Scales []domain.Scale
	// Warnings say what was imported differently from how it was written
	// or left out, one line each.
	Warnings []string
	// Stats has one entry per input file, in input order.
	Stats []FileStats
	// Format is the format that was parsed (detected when none was given).
	Format string
	// ErrorTaxonomy is the preset of tasks.ErrorPresets the error types
	// belong to ("tofueval"), or "" when the input has no error types or
	// they belong to no preset.
	ErrorTaxonomy string
}

// Parse reads files in the given format, or detects the format from their
// content when format is "". Problems in the content are returned as
// Errors; an unknown format name, no files, or files whose format cannot be
// told or that mix formats give a plain error.
func Parse(format string, files []File) (*Result, error) {
	return ParseWith(format, files, Options{})
}

// ParseFiles opens the named files and parses them like Parse; messages
// name each file by its path as given.
func ParseFiles(format string, paths []string, opts Options) (*Result, error) {
	var files []File
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var size int64
		if info, err := f.Stat(); err == nil {
			size = info.Size()
		}
		files = append(files, File{Name: p, R: f, Size: size})
	}
	return ParseWith(format, files, opts)
}

// ParseWith is Parse with options.
func ParseWith(format string, files []File, opts Options) (*Result, error) {
	format = strings.ToLower(strings.TrimSpace(format))
	switch format {
	case "", FormatNative, FormatTofuEval, FormatMADISSE, FormatSummEdits:
	default:
		return nil, fmt.Errorf("unknown import format %q (one of %s)", format, strings.Join(Formats, ", "))
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no files to import")
	}
	c := &collector{partial: opts.Partial, skip: map[string]bool{}}
	for _, id := range opts.SkipDocuments {
		c.skip[id] = true
	}
	inputs := make([]input, len(files))
	for i, f := range files {
		r, done := withProgress(opts.Progress, filepath.Base(f.Name), f.Size, f.R)
		br := bufio.NewReaderSize(r, sniffSize)
		skipBOM(br)
		inputs[i] = input{name: f.Name, r: br, done: done, role: sniff(br)}
	}
	defer func() {
		for _, in := range inputs {
			in.done()
		}
	}()
	if err := checkReadable(inputs); err != nil {
		return nil, err
	}
	format, err := decideFormat(format, inputs)
	if err != nil {
		return nil, err
	}
	res := &Result{Format: format, Stats: make([]FileStats, len(inputs))}
	for i := range inputs {
		res.Stats[i] = FileStats{File: inputs[i].name, Role: inputs[i].role.String()}
		inputs[i].stats = &res.Stats[i]
	}
	var docs []parsed
	switch format {
	case FormatNative:
		docs = parseAll(inputs, c, parseNative)
		res.ErrorTaxonomy = inferPreset(allErrorTypes(docs, c.labels))
		if res.ErrorTaxonomy == "" {
			if types := allErrorTypes(docs, c.labels); len(types) > 0 {
				c.warnf("error types %s match no built-in taxonomy; kept as written", strings.Join(types, ", "))
			}
		}
	case FormatSummEdits:
		docs = parseAll(inputs, c, parseSummEdits)
	case FormatMADISSE:
		for _, in := range inputs {
			var ds []parsed
			if in.role == roleMADISSESample {
				ds = parseSample(in.name, in.r, c)
				res.ErrorTaxonomy = "tofueval"
			} else {
				ds = madisseDocuments(in.name, parseMADISSE(in.name, in.r, c))
			}
			in.stats.Records = countRecords(ds)
			docs = append(docs, ds...)
		}
	case FormatTofuEval:
		res.ErrorTaxonomy = "tofueval"
		docs = parseTofuEval(inputs, c)
	}
	r := newResolver(c, res.ErrorTaxonomy)
	for i := range docs {
		if c.full() {
			break
		}
		r.document(&docs[i])
	}
	res.Labels = r.records(c.labels)
	res.Scales = c.scales
	if len(c.errs) == 0 && len(docs) == 0 && len(res.Labels) == 0 && len(res.Scales) == 0 {
		names := make([]string, len(inputs))
		for i, in := range inputs {
			names[i] = in.name
		}
		c.addf(&Error{File: strings.Join(names, ", ")}, "", "no documents, labels or scales to import")
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	for _, p := range docs {
		res.Documents = append(res.Documents, p.doc)
	}
	countStats(res, docs, format)
	identicalScales(res.Documents, res.Labels, c)
	res.Warnings = c.warns
	return res, nil
}

// input is one file being parsed.
type input struct {
	name  string
	r     *bufio.Reader
	done  func()
	role  role
	stats *FileStats
}

// skipBOM drops a UTF-8 byte order mark.
func skipBOM(br *bufio.Reader) {
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		_, _ = br.Discard(3)
	}
}

// parseAll applies one parser to every file.
func parseAll(inputs []input, c *collector, parse func(string, io.Reader, *collector) []parsed) []parsed {
	var out []parsed
	for _, in := range inputs {
		ds := parse(in.name, in.r, c)
		in.stats.Records = countRecords(ds)
		out = append(out, ds...)
	}
	return out
}

// parseTofuEval sorts the files of a TofuEval import by role and joins them.
func parseTofuEval(inputs []input, c *collector) []parsed {
	var in tofuInputs
	for _, f := range inputs {
		switch f.role {
		case roleTofuFactual:
			in.factual = append(in.factual, namedRows{f.name, parseFactual(f.name, f.r, c), f.stats})
		case roleTofuKeyPoints:
			in.keyPoints = append(in.keyPoints, namedKeyPoints{f.name, parseKeyPoints(f.name, f.r, c), f.stats})
		case roleMADISSE:
			in.madisse = append(in.madisse, namedMADISSE{f.name, parseMADISSE(f.name, f.r, c), f.stats})
		case roleTranscripts:
			in.transcripts = append(in.transcripts, namedTranscripts{f.name, parseTranscripts(f.name, f.r, c), f.stats})
		case roleNativeTranscripts:
			var docs []domain.DocumentInput
			for _, p := range parseNative(f.name, f.r, c) {
				docs = append(docs, p.doc)
			}
			in.transcripts = append(in.transcripts, namedTranscripts{f.name, docs, f.stats})
		case roleTofuSplit:
			c.warnf("%s: the dev/test split is not needed for import; ignored", f.name)
		}
	}
	if len(c.errs) > 0 {
		return nil
	}
	return tofuevalDocuments(in, c)
}

// countRecords counts the records behind parsed documents: one per
// summary location when known, else one per document.
func countRecords(ds []parsed) int {
	n := 0
	for _, p := range ds {
		if len(p.summaryAt) > 0 {
			n += len(p.summaryAt)
		} else {
			n++
		}
	}
	return n
}

// allErrorTypes lists the distinct error types written in the documents.
func allErrorTypes(docs []parsed, labels []located) []string {
	var out []string
	seen := map[string]bool{}
	add := func(g *domain.GoldInput) {
		if g == nil {
			return
		}
		for _, t := range g.ErrorTypes {
			if t = strings.TrimSpace(t); t != "" && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	for _, p := range docs {
		for _, s := range p.doc.Summaries {
			add(s.Gold)
			for _, sent := range s.Sentences {
				add(sent.Gold)
				for _, l := range sent.Labels {
					add(&domain.GoldInput{ErrorTypes: l.ErrorTypes})
				}
			}
		}
	}
	for _, l := range labels {
		if l.rec.Label != nil {
			add(&domain.GoldInput{ErrorTypes: l.rec.Label.ErrorTypes})
		}
	}
	return out
}

// IDList reads a list of document ids as the CLI, the Import page and the
// API take it: separated by commas or line breaks, each trimmed, empty
// ones dropped.
func IDList(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
