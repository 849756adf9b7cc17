package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
)

// ImportAssistRuns reads a file of the assistant's results (the assist
// export format), checks every line against the project and writes the
// runs it holds in one transaction, or nothing when any line is wrong; it
// says what it imported on out. Lines without a run field belong to the
// run called name; sample marks every run as made without a model. The
// file is read once, in bounded memory: one goroutine decodes and checks
// lines while the transaction writes those before them, and the first
// problem stops the writing (the transaction is rolled back) while the
// reading goes on to report the problems after it.
func (a *App) ImportAssistRuns(ctx context.Context, p *domain.Project, file string, r io.Reader, name string, sample bool, out io.Writer) error {
	targets, err := a.assists.AssistTargets(ctx, p.ID)
	if err != nil {
		return domain.Op("App.ImportAssistRuns", err)
	}
	var groups []*importGroup
	ids, err := a.assists.ImportAssistStream(ctx, p.ID, func(w *assiststore.AssistImportWriter) error {
		batches := make(chan importBatch, 4)
		stop := make(chan struct{})
		var readErr error
		go func() {
			defer close(batches)
			groups, readErr = readAssistRuns(file, r, targets, name, sample, batches, stop)
		}()
		var writeErr error
		for b := range batches {
			if writeErr == nil {
				if writeErr = writeImportBatch(w, b); writeErr != nil {
					close(stop)
				}
			}
		}
		if readErr != nil {
			return readErr
		}
		return writeErr
	})
	if err != nil {
		return domain.Op("App.ImportAssistRuns", err)
	}
	for i, id := range ids {
		kind := "run"
		if groups[i].run.Sample {
			kind = "sample run (not from a model)"
		}
		fmt.Fprintf(out, "imported %s %d %q: %d sentence results, protocol %s\n", kind, id, groups[i].run.Name, groups[i].results, groups[i].run.Protocol)
	}
	return nil
}

// importBatch is results read in a row, handed from the reading goroutine
// to the writing one: a run's results, after the run itself when they are
// its first.
type importBatch struct {
	newRun  *assiststore.AssistRun // the run to make first, or nil
	group   int                    // the run's number in the file, from 0
	outputs []assiststore.AssistOutput
	usage   assiststore.AssistUsage
}

// importBatchSize is how many results an importBatch holds at most.
const importBatchSize = 256

// writeImportBatch writes one batch: it makes the run first when the
// batch brings it, runs being made in the order the file names them.
func writeImportBatch(w *assiststore.AssistImportWriter, b importBatch) error {
	if b.newRun != nil {
		if _, err := w.Run(*b.newRun); err != nil {
			return err
		}
	}
	return w.Outputs(b.group, b.outputs, b.usage)
}

// importSampleRun imports the demo's sample run (data, in the assist export
// format) into project p through the same checks as assist import. It does
// nothing when the project already has a sample run, so the demo setup can
// call it every time.
func (a *App) importSampleRun(ctx context.Context, p *domain.Project, data []byte, out io.Writer) error {
	has, err := a.assists.HasSampleAssistRun(ctx, p.ID)
	if err != nil || has {
		return err
	}
	return a.ImportAssistRuns(ctx, p, "demo/sample_run.jsonl", bytes.NewReader(data), "sample output", true, out)
}

// maxImportProblems bounds how many wrong lines an import reports.
const maxImportProblems = 20

// importGroup follows the lines of one run of a file.
type importGroup struct {
	run     assiststore.AssistRun
	index   int           // the run's number in the file, from 0
	line    int           // where the run first appears
	sample  bool          // the sample field of its first line
	seen    map[int64]int // sentence id -> line
	results int
	pending *importBatch // results not yet handed over
}

// readAssistRuns decodes and checks every line of a results file and
// groups the lines into runs by their run field (name when it is empty),
// handing the results over to batches as they are read, in file order,
// until the first problem or until stop is closed. Any problem is
// reported as FILE:LINE: FIELD: message, up to maxImportProblems of them.
// It returns the runs in the order the file names them.
func readAssistRuns(file string, r io.Reader, targets map[string]*assiststore.AssistTarget, name string, sample bool, batches chan<- importBatch, stop <-chan struct{}) ([]*importGroup, error) {
	var (
		problems []string
		groups   = map[string]*importGroup{}
		order    []*importGroup
		stopped  bool
		fatal    error
	)
	report := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: ", file, line)+fmt.Sprintf(format, args...))
	}
	send := func(g *importGroup) {
		if g.pending == nil {
			return
		}
		b := *g.pending
		g.pending = nil
		if stopped || len(problems) > 0 {
			return
		}
		select {
		case batches <- b:
		case <-stop:
			stopped = true
		}
	}
	var last *importGroup // the run of the last result, whose batch is open
	resultLines(r, targets, func(l *resultLine) bool {
		if l.fatal != nil {
			fatal = fmt.Errorf("%s:%d: %s", file, l.line, l.fatal)
			return false
		}
		for _, p := range l.problems {
			report(l.line, "%s", p)
		}
		if len(l.problems) > 0 {
			return len(problems) < maxImportProblems
		}
		rec := &l.rec
		key := rec.Run
		if key == "" {
			key = name
		}
		g := groups[key]
		var newRun *assiststore.AssistRun
		if g == nil {
			res := rec.Result
			settings, _ := json.Marshal(res.Settings)
			g = &importGroup{index: len(order), line: l.line, sample: rec.Sample, seen: map[int64]int{}, run: assiststore.AssistRun{
				Name: key, Protocol: string(res.Protocol), Model: res.Model, Settings: string(settings),
				PromptVersion: res.PromptVersion, Sample: sample || rec.Sample,
			}}
			groups[key] = g
			order = append(order, g)
			run := g.run
			newRun = &run
		}
		if rec.Sample != g.sample {
			report(l.line, "sample: %v, but line %d of run %q says %v", rec.Sample, g.line, key, g.sample)
			return len(problems) < maxImportProblems
		}
		if prev, dup := g.seen[l.sid]; dup {
			report(l.line, "sentence_id: sentence %s of summary %s already appears on line %d of run %q", rec.SentenceID, rec.SummaryID, prev, key)
			return len(problems) < maxImportProblems
		}
		g.seen[l.sid] = l.line
		if last != nil && last != g {
			send(last)
		}
		last = g
		if g.pending == nil {
			g.pending = &importBatch{newRun: newRun, group: g.index, outputs: make([]assiststore.AssistOutput, 0, importBatchSize)}
		}
		b := g.pending
		b.outputs = append(b.outputs, assiststore.AssistOutput{SentenceID: l.sid, Label: l.label, Status: string(rec.Result.Status), Output: l.data})
		u := rec.Result.Usage
		b.usage.Add(assiststore.AssistUsage{Calls: u.Calls, CacheHits: u.CacheHits, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, Failures: u.Failures})
		g.results++
		if len(b.outputs) == importBatchSize {
			send(g)
		}
		return !stopped
	})
	if fatal != nil {
		return nil, fatal
	}
	if last != nil {
		send(last)
	}
	if len(problems) > 0 {
		more := ""
		if len(problems) >= maxImportProblems {
			more = "\n(stopped after " + strconv.Itoa(maxImportProblems) + " problems)"
		}
		return nil, fmt.Errorf("nothing imported; %d problems:\n%s%s", len(problems), strings.Join(problems, "\n"), more)
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%s: no results", file)
	}
	return order, nil
}

// checkRecord checks one decoded line against the project: a known
// summary of the named document, a sentence number within it, a matching
// target and citations within the document. It returns the sentence id.
func checkRecord(rec assist.ExportRecord, targets map[string]*assiststore.AssistTarget, report func(string, ...any)) (int64, bool) {
	t := targets[rec.SummaryID]
	if t == nil {
		report("summary_id: no summary %q in this project", rec.SummaryID)
		return 0, false
	}
	if rec.DocumentID != t.DocumentID {
		report("document_id: %q, but summary %s belongs to document %q", rec.DocumentID, rec.SummaryID, t.DocumentID)
		return 0, false
	}
	idx, err := strconv.Atoi(rec.SentenceID)
	if err != nil || idx < 1 || idx > len(t.SentenceIDs) {
		report("sentence_id: %q is not a sentence number of summary %s (1 to %d)", rec.SentenceID, rec.SummaryID, len(t.SentenceIDs))
		return 0, false
	}
	if rec.Result.Target != idx-1 {
		report("result.target: %d, but sentence %d is target %d (targets count from 0)", rec.Result.Target, idx, idx-1)
		return 0, false
	}
	if err := rec.Result.CheckCitations(t.Units); err != nil {
		report("result.%v", err)
		return 0, false
	}
	return t.SentenceIDs[idx-1], true
}
