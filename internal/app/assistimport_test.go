package app_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/app"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// resultsProject makes a project of docs documents (two units each), each
// with one summary of five sentences, for assistant results to match.
func resultsProject(t testing.TB, docs int) (context.Context, *tasks.Store, *domain.Project) {
	t.Helper()
	ctx := context.Background()
	s := must(tasks.Open(ctx, filepath.Join(t.TempDir(), "a.db")))(t)
	t.Cleanup(func() { s.Close() })
	p := must(s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()}))(t)
	var in []domain.DocumentInput
	for d := range docs {
		sum := domain.SummaryInput{ExternalID: fmt.Sprintf("d%d-s", d)}
		for i := range 5 {
			sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i+1)})
		}
		in = append(in, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", d), Sentences: []string{"The council met.", "It voted."}, Summaries: []domain.SummaryInput{sum}})
	}
	must(s.Import(ctx, p.ID, in))(t)
	return ctx, s, p
}

// resultLine is one line of a results file: run's result for sentence
// sent (1-based) of document d's summary, which spent 3 calls.
func resultLine(d, sent int, run string) string {
	return fmt.Sprintf(`{"project_id":"p","document_id":"d%d","summary_id":"d%d-s","sentence_id":"%d","run":%q,"result":{"protocol":"single","target":%d,`+
		`"adjudicator":{"label":"faithful","report":"Unit [1] says so; Authorization: Bearer abc123XYZdef leaked.","citations":[1]},"evidence":[1,2],`+
		`"prompt_version":"v1","model":"m","settings":{"protocol":"single","evidence_cap":4},"usage":{"calls":3,"prompt_tokens":10,"completion_tokens":2},"status":"ok"}}`,
		d, d, sent, run, sent-1)
}

// resultsFile writes the results of docs documents, the even documents in
// run "a" and the odd ones in run "b", with a blank line after every
// 97th line, and returns it with the number each line has in it, by
// document and sentence.
func resultsFile(docs int, edit func(d, sent int, line string) string) (string, map[[2]int]int) {
	var b strings.Builder
	at := map[[2]int]int{}
	n := 0
	for d := range docs {
		for sent := 1; sent <= 5; sent++ {
			run := "a"
			if d%2 == 1 {
				run = "b"
			}
			line := resultLine(d, sent, run)
			if edit != nil {
				line = edit(d, sent, line)
			}
			n++
			at[[2]int{d, sent}] = n
			b.WriteString(line + "\n")
			if n%97 == 0 {
				n++
				b.WriteString("\n")
			}
		}
	}
	return b.String(), at
}

// TestImportAssistRunsInterleavedRuns imports a file whose lines
// alternate between two runs over many batches: each run gets its own
// results, totals and summed usage, credentials are redacted, and the
// project's report version moves on.
func TestImportAssistRunsInterleavedRuns(t *testing.T) {
	ctx, s, p := resultsProject(t, 300)
	before := must(s.ReportVersion(ctx, p.ID))(t)
	evalBefore := must(s.EvalVersion(ctx, p.ID))(t)
	data, _ := resultsFile(300, nil)
	var out bytes.Buffer
	if err := app.New(s).ImportAssistRuns(ctx, p, "r.jsonl", strings.NewReader(data), "unnamed", false, &out); err != nil {
		t.Fatal(err)
	}
	want := "imported run 1 \"a\": 750 sentence results, protocol single\nimported run 2 \"b\": 750 sentence results, protocol single\n"
	if out.String() != want {
		t.Fatalf("printed\n%s\nwant\n%s", out.String(), want)
	}
	as := assiststore.New(s)
	for id := int64(1); id <= 2; id++ {
		r := must(as.AssistRunByID(ctx, id))(t)
		if r.Outputs != 750 || r.Total != 750 || r.Usage.Calls != 3*750 || r.Usage.PromptTokens != 10*750 || r.Status != assiststore.RunImported {
			t.Errorf("run %d = %+v", id, r)
		}
	}
	n := 0
	err := as.EachAssistOutput(ctx, 2, func(o assiststore.ExportedOutput) error {
		n++
		if o.DocumentID == "d0" || strings.Contains(string(o.Output), "abc123XYZdef") || !strings.Contains(string(o.Output), "Bearer [redacted]") {
			t.Fatalf("run b holds %s %s: %s", o.DocumentID, o.SummaryID, o.Output)
		}
		return nil
	})
	if err != nil || n != 750 {
		t.Fatalf("run b: %d results, %v", n, err)
	}
	after := must(s.ReportVersion(ctx, p.ID))(t)
	if after <= before {
		t.Errorf("report version %d after the import, %d before", after, before)
	}
	evalAfter := must(s.EvalVersion(ctx, p.ID))(t)
	if evalAfter <= evalBefore {
		t.Errorf("eval version %d after the import, %d before", evalAfter, evalBefore)
	}
	// The import held the triggers that bump the version for each result:
	// they are back.
	if err := as.SaveAssistOutput(ctx, 1, assiststore.AssistOutput{SentenceID: 1, Label: "unfaithful", Output: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if v := must(s.ReportVersion(ctx, p.ID))(t); v <= after {
		t.Errorf("report version %d after a result was saved, %d before", v, after)
	}
	if v := must(s.EvalVersion(ctx, p.ID))(t); v <= evalAfter {
		t.Errorf("eval version %d after a result was saved, %d before", v, evalAfter)
	}
}

// TestImportAssistRunsLateProblemsWriteNothing puts problems far into a
// file, after many results were handed to the transaction: nothing is
// kept, and each problem names its line as the file numbers it (blank
// lines counted).
func TestImportAssistRunsLateProblemsWriteNothing(t *testing.T) {
	ctx, s, p := resultsProject(t, 300)
	before := must(s.ReportVersion(ctx, p.ID))(t)
	data, at := resultsFile(300, func(d, sent int, line string) string {
		switch {
		case d == 250 && sent == 2:
			return strings.Replace(line, `"summary_id":"d250-s"`, `"summary_id":"nope"`, 1)
		case d == 280 && sent == 4:
			return strings.Replace(line, `"sentence_id":"4"`, `"sentence_id":"3"`, 1)
		}
		return line
	})
	err := app.New(s).ImportAssistRuns(ctx, p, "r.jsonl", strings.NewReader(data), "unnamed", false, &bytes.Buffer{})
	if err == nil {
		t.Fatal("a file with problems was imported")
	}
	for _, want := range []string{
		fmt.Sprintf(`r.jsonl:%d: summary_id: no summary "nope" in this project`, at[[2]int{250, 2}]),
		fmt.Sprintf(`r.jsonl:%d: result.target: 3, but sentence 3 is target 2`, at[[2]int{280, 4}]),
		"nothing imported; 2 problems",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if runs := must(assiststore.New(s).AssistRuns(ctx, p.ID))(t); len(runs) != 0 {
		t.Fatalf("a refused import left %d runs", len(runs))
	}
	if after := must(s.ReportVersion(ctx, p.ID))(t); after != before {
		t.Errorf("report version %d after a refused import, %d before", after, before)
	}
}
