package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
)

// ImportAssistRuns reads a whole file of the assistant's results (the
// assist export format), checks every line against the project and writes
// the runs it holds in one transaction, or nothing when any line is wrong;
// it says what it imported on out. Lines without a run field belong to
// the run called name; sample marks every run as made without a model.
func (a *App) ImportAssistRuns(ctx context.Context, p *domain.Project, file string, r io.Reader, name string, sample bool, out io.Writer) error {
	targets, err := a.assists.AssistTargets(ctx, p.ID)
	if err != nil {
		return domain.Op("App.ImportAssistRuns", err)
	}
	runs, err := readAssistRuns(file, r, targets, name, sample)
	if err != nil {
		return domain.Op("App.ImportAssistRuns", err)
	}
	ids, err := a.assists.ImportAssistRuns(ctx, p.ID, runs)
	if err != nil {
		return domain.Op("App.ImportAssistRuns", err)
	}
	for i, id := range ids {
		kind := "run"
		if runs[i].Run.Sample {
			kind = "sample run (not from a model)"
		}
		fmt.Fprintf(out, "imported %s %d %q: %d sentence results, protocol %s\n", kind, id, runs[i].Run.Name, len(runs[i].Outputs), runs[i].Run.Protocol)
	}
	return nil
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

// importGroup collects the lines of one run of a file.
type importGroup struct {
	run     assiststore.AssistRunImport
	line    int           // where the run first appears
	sample  bool          // the sample field of its first line
	seen    map[int64]int // sentence id -> line
	outputs []assiststore.AssistOutput
}

// readAssistRuns decodes and checks every line of a results file and
// groups the lines into runs by their run field (name when it is empty).
// Any problem is reported as FILE:LINE: FIELD: message, up to
// maxImportProblems of them, and no run is returned.
func readAssistRuns(file string, r io.Reader, targets map[string]*assiststore.AssistTarget, name string, sample bool) ([]assiststore.AssistRunImport, error) {
	dec := assist.NewDecoder(r)
	var (
		problems []string
		groups   = map[string]*importGroup{}
		order    []*importGroup
	)
	report := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: ", file, line)+fmt.Sprintf(format, args...))
	}
	for len(problems) < maxImportProblems {
		rec, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			prefix := fmt.Sprintf("line %d: ", dec.Line())
			msg, perLine := strings.CutPrefix(err.Error(), prefix)
			if !perLine || strings.Contains(msg, "longer than") {
				return nil, fmt.Errorf("%s:%d: %s", file, dec.Line(), msg)
			}
			report(dec.Line(), "%s", msg)
			continue
		}
		line := dec.Line()
		sid, ok := checkRecord(rec, targets, func(format string, args ...any) { report(line, format, args...) })
		if !ok {
			continue
		}
		key := rec.Run
		if key == "" {
			key = name
		}
		g := groups[key]
		if g == nil {
			res := rec.Result
			settings, _ := json.Marshal(res.Settings)
			g = &importGroup{line: line, sample: rec.Sample, seen: map[int64]int{}, run: assiststore.AssistRunImport{Run: assiststore.AssistRun{
				Name: key, Protocol: string(res.Protocol), Model: res.Model, Settings: string(settings),
				PromptVersion: res.PromptVersion, Sample: sample || rec.Sample,
			}}}
			groups[key] = g
			order = append(order, g)
		}
		if rec.Sample != g.sample {
			report(line, "sample: %v, but line %d of run %q says %v", rec.Sample, g.line, key, g.sample)
			continue
		}
		if prev, dup := g.seen[sid]; dup {
			report(line, "sentence_id: sentence %s of summary %s already appears on line %d of run %q", rec.SentenceID, rec.SummaryID, prev, key)
			continue
		}
		g.seen[sid] = line
		data, err := json.Marshal(rec.Result)
		if err != nil {
			return nil, err
		}
		label := ""
		if rec.Result.Status == assist.StatusOK {
			label = string(rec.Result.Adjudicator.Label)
		}
		g.run.Outputs = append(g.run.Outputs, assiststore.AssistOutput{SentenceID: sid, Label: label, Status: string(rec.Result.Status), Output: data})
		u := rec.Result.Usage
		g.run.Run.Usage.Add(assiststore.AssistUsage{Calls: u.Calls, CacheHits: u.CacheHits, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, Failures: u.Failures})
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
	runs := make([]assiststore.AssistRunImport, len(order))
	for i, g := range order {
		runs[i] = g.run
	}
	return runs, nil
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
