package assiststore_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
	"annotate/internal/testkit/sqlplan"
)

func TestLLMCache(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	c := assiststore.New(s).LLMCache()
	if _, ok, err := c.Get(ctx, "k"); ok || err != nil {
		t.Fatalf("Get on empty cache = %v, %v", ok, err)
	}
	if err := c.Put(ctx, "k", []byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "k", []byte(`{"a":2}`)); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.Get(ctx, "k")
	if !ok || err != nil || string(got) != `{"a":2}` {
		t.Fatalf("Get = %q, %v, %v; want the replaced value", got, ok, err)
	}
	if n, _ := c.Len(ctx); n != 1 {
		t.Fatalf("Len = %d, want 1", n)
	}
}

// assistProject is a project with the two documents of sampleDocs and
// guidelines holding a numbered list.
func assistProject(t *testing.T, s *tasks.Store) *domain.Project {
	t.Helper()
	ctx := context.Background()
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings(),
		Guidelines: "## Rules\n\nRead first.\n\n1. Check every claim\n   against the document.\n2) No outside knowledge.\n\n- not a guideline\n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, p.ID, testkit.SampleDocs()); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAssistWork(t *testing.T) {
	s := testkit.OpenStore(t)
	p := assistProject(t, s)
	w, err := assiststore.New(s).AssistWork(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Check every claim against the document.", "No outside knowledge."}; !slices.Equal(w.Guidelines, want) {
		t.Errorf("guidelines = %q, want %q", w.Guidelines, want)
	}
	if len(w.ErrorTypes) != 7 {
		t.Errorf("%d error types, want the 7 of the TofuEval preset", len(w.ErrorTypes))
	}
	var keys []string
	for _, x := range w.Sentences {
		keys = append(keys, x.Key())
	}
	if want := []string{"d1/d1-s1/1", "d1/d1-s1/2", "d2/d2-s1/1"}; !slices.Equal(keys, want) {
		t.Fatalf("keys = %q, want %q", keys, want)
	}
	x := w.Sentences[1]
	if len(x.Units) != 2 || x.Units[1].Text != "It approved the budget." || x.Topic != "Budget" {
		t.Errorf("sentence 2 = %+v", x)
	}
	if !slices.Equal(x.Summary, []string{"The council approved the budget.", "The vote was unanimous."}) {
		t.Errorf("summary = %q", x.Summary)
	}
	if len(x.KeyFacts) != 1 || x.KeyFacts[0].Text != "The budget was approved." {
		t.Errorf("key facts = %+v", x.KeyFacts)
	}
	if y := w.Sentences[2]; len(y.Summary) != 1 || y.Units[0].Speaker != "Speaker 1" || len(y.KeyFacts) != 0 {
		t.Errorf("sentence 3 = %+v", y)
	}
}

func TestNumberedItems(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"none", "Just prose.\n\n- a bullet\n", nil},
		{"continuation", "1. One\ncontinues\n2. Two\n\nAfter.", []string{"One continues", "Two"}},
		{"heading ends an item", "1. One\n## Next\ntext", []string{"One"}},
		{"crlf", "1. A\r\n2. B\r\n", []string{"A", "B"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := assiststore.NumberedItems(c.in); !slices.Equal(got, c.want) {
				t.Fatalf("NumberedItems(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestAssistRunLifecycle(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	p := assistProject(t, s)
	w, _ := assiststore.New(s).AssistWork(ctx, p.ID)
	r, err := assiststore.New(s).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single", Model: "m1", Total: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != assiststore.RunQueued || r.Title() != "run 1" {
		t.Fatalf("new run = %+v", r)
	}
	if err := assiststore.New(s).StartAssistRun(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	s1, s2 := w.Sentences[0].SentenceID, w.Sentences[1].SentenceID
	must(t, assiststore.New(s).SaveAssistOutput(ctx, r.ID, assiststore.AssistOutput{SentenceID: s1, Label: "faithful", Output: []byte(`{"n":1}`)}))
	must(t, assiststore.New(s).SaveAssistOutput(ctx, r.ID, assiststore.AssistOutput{SentenceID: s2, Status: "failed", Output: []byte(`{"n":2}`)}))
	done, err := assiststore.New(s).AssistDone(ctx, r.ID)
	if err != nil || !done[s1] || done[s2] {
		t.Fatalf("done = %v, %v; want only the complete sentence", done, err)
	}
	t.Run("a rerun replaces a failed output", func(t *testing.T) {
		must(t, assiststore.New(s).SaveAssistOutput(ctx, r.ID, assiststore.AssistOutput{SentenceID: s2, Label: "unfaithful", Output: []byte(`{"n":3}`)}))
		done, _ := assiststore.New(s).AssistDone(ctx, r.ID)
		if !done[s2] {
			t.Fatal("sentence 2 still not done")
		}
	})
	t.Run("interrupted on server start", func(t *testing.T) {
		n, err := assiststore.New(s).InterruptAssistRuns(ctx)
		if err != nil || n != 1 {
			t.Fatalf("InterruptAssistRuns = %d, %v", n, err)
		}
		got, _ := assiststore.New(s).AssistRunByID(ctx, r.ID)
		if got.Status != assiststore.RunFailed || got.Error != "interrupted; resume with annotate assist run --resume 1" || !got.Resumable() {
			t.Fatalf("after interrupt = %+v", got)
		}
	})
	t.Run("finish adds usage", func(t *testing.T) {
		must(t, assiststore.New(s).StartAssistRun(ctx, r.ID))
		must(t, assiststore.New(s).FinishAssistRun(ctx, r.ID, assiststore.RunDone, "", assiststore.AssistUsage{Calls: 5, CacheHits: 2, PromptTokens: 100, CompletionTokens: 10}))
		must(t, assiststore.New(s).FinishAssistRun(ctx, r.ID, assiststore.RunDone, "", assiststore.AssistUsage{Calls: 1, PromptTokens: 7}))
		got, _ := assiststore.New(s).AssistRunByID(ctx, r.ID)
		want := assiststore.AssistUsage{Calls: 6, CacheHits: 2, PromptTokens: 107, CompletionTokens: 10}
		if got.Status != assiststore.RunDone || got.Usage != want || got.Outputs != 2 || got.Failed != 0 || got.FinishedAt == "" {
			t.Fatalf("finished run = %+v", got)
		}
	})
	if _, err := assiststore.New(s).AssistRunByID(ctx, 99); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("missing run: err = %v, want not found", err)
	}
}

func TestAssistPanelPrefersNewestRealRun(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	p := assistProject(t, s)
	w, _ := assiststore.New(s).AssistWork(ctx, p.ID)
	s1, s2 := w.Sentences[0].SentenceID, w.Sentences[1].SentenceID
	run := func(sample bool) int64 {
		r, err := assiststore.New(s).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single", Sample: sample})
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	older, sample, newer := run(false), run(true), run(false)
	must(t, assiststore.New(s).SaveAssistOutput(ctx, sample, assiststore.AssistOutput{SentenceID: s1, Label: "faithful", Output: []byte(`"sample-1"`)}))
	must(t, assiststore.New(s).SaveAssistOutput(ctx, sample, assiststore.AssistOutput{SentenceID: s2, Label: "faithful", Output: []byte(`"sample-2"`)}))
	must(t, assiststore.New(s).SaveAssistOutput(ctx, older, assiststore.AssistOutput{SentenceID: s1, Label: "faithful", Output: []byte(`"older-1"`)}))
	must(t, assiststore.New(s).SaveAssistOutput(ctx, newer, assiststore.AssistOutput{SentenceID: s1, Label: "faithful", Output: []byte(`"newer-1"`)}))
	must(t, assiststore.New(s).SaveAssistOutput(ctx, newer, assiststore.AssistOutput{SentenceID: s2, Status: "failed", Output: []byte(`"newer-2-failed"`)}))
	sums, _ := s.SummaryIDs(ctx, p.ID, nil)
	got, err := assiststore.New(s).AssistPanel(ctx, sums[0])
	if err != nil {
		t.Fatal(err)
	}
	if o := got[s1]; string(o.Output) != `"newer-1"` || o.Sample || o.RunID != newer {
		t.Errorf("sentence 1 shows %s (run %d, sample %v), want the newest real run", o.Output, o.RunID, o.Sample)
	}
	if o := got[s2]; string(o.Output) != `"sample-2"` || !o.Sample {
		t.Errorf("sentence 2 shows %s, want the sample (the real run failed there)", o.Output)
	}
}

func TestImportAssistRunsIsAtomic(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	p := assistProject(t, s)
	other, _ := s.CreateProject(ctx, domain.Project{Slug: "other", Settings: domain.DefaultSettings()})
	w, _ := assiststore.New(s).AssistWork(ctx, p.ID)
	good := assiststore.AssistRunImport{Run: assiststore.AssistRun{Name: "elsewhere", Protocol: "single", Model: "m"},
		Outputs: []assiststore.AssistOutput{{SentenceID: w.Sentences[0].SentenceID, Label: "faithful", Output: []byte("{}")}}}
	bad := assiststore.AssistRunImport{Run: assiststore.AssistRun{Protocol: "single"},
		Outputs: []assiststore.AssistOutput{{SentenceID: w.Sentences[0].SentenceID, Label: "maybe", Output: []byte("{}")}}}
	if _, err := assiststore.New(s).ImportAssistRuns(ctx, p.ID, []assiststore.AssistRunImport{good, bad}); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("err = %v, want invalid", err)
	}
	if _, err := assiststore.New(s).ImportAssistRuns(ctx, other.ID, []assiststore.AssistRunImport{good}); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("a sentence of another project: err = %v, want invalid", err)
	}
	if runs, _ := assiststore.New(s).AssistRuns(ctx, p.ID); len(runs) != 0 {
		t.Fatalf("a failed import left %d runs", len(runs))
	}
	ids, err := assiststore.New(s).ImportAssistRuns(ctx, p.ID, []assiststore.AssistRunImport{good})
	if err != nil || len(ids) != 1 {
		t.Fatalf("import = %v, %v", ids, err)
	}
	r, _ := assiststore.New(s).AssistRunByID(ctx, ids[0])
	if r.Status != assiststore.RunImported || r.Total != 1 || r.Outputs != 1 || r.Title() != "elsewhere" || r.FinishedAt == "" {
		t.Fatalf("imported run = %+v", r)
	}
	if err := assiststore.New(s).StartAssistRun(ctx, r.ID); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("starting an imported run: err = %v, want invalid", err)
	}
}

// TestEvalLabels checks the numbers on a hand-made set of eight sentences
// plus one borderline gold label that must be left out:
//
//	gold unfaithful: assistant unfaithful ×2 (TP), faithful ×1 (FN)
//	gold faithful:   assistant faithful ×4 (TN), unfaithful ×1 (FP)
//
// FPR = 1/5 = 0.2, FNR = 1/3, BAcc = 1 − (0.2 + 1/3)/2 = 0.7333….
// Krippendorff's α (nominal, gold and assistant as two coders): n = 16
// pairable values, 6 unfaithful and 10 faithful; two units disagree, so
// D_o = (2 units × 2 ordered pairs)/16 = 0.25 and D_e = 2·6·10/(16·15) =
// 0.5, hence α = 1 − 0.25/0.5 = 0.5.
func TestEvalLabels(t *testing.T) {
	var pairs []assiststore.LabelPair
	add := func(n int, gold, asst string) {
		for range n {
			pairs = append(pairs, assiststore.LabelPair{Gold: gold, Assistant: asst})
		}
	}
	add(2, "unfaithful", "unfaithful")
	add(1, "unfaithful", "faithful")
	add(4, "faithful", "faithful")
	add(1, "faithful", "unfaithful")
	add(1, "borderline", "faithful")
	e := assiststore.EvalLabels(pairs)
	const tol = 1e-9
	if e.N != 8 || e.TP != 2 || e.FN != 1 || e.TN != 4 || e.FP != 1 {
		t.Fatalf("counts = %+v", e)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"FPR", e.FPR, 0.2}, {"FNR", e.FNR, 1.0 / 3}, {"BAcc", e.BalancedAccuracy, 1 - (0.2+1.0/3)/2}, {"alpha", e.Alpha, 0.5}} {
		if math.Abs(c.got-c.want) > tol {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if e.RatesUndefined != "" || e.AlphaUndefined != "" {
		t.Errorf("undefined reasons set: %+v", e)
	}

	t.Run("one gold class", func(t *testing.T) {
		e := assiststore.EvalLabels([]assiststore.LabelPair{{"faithful", "faithful"}, {"faithful", "unfaithful"}})
		if e.RatesUndefined == "" {
			t.Fatalf("rates defined with no unfaithful gold: %+v", e)
		}
	})
	t.Run("no pairs", func(t *testing.T) {
		e := assiststore.EvalLabels(nil)
		if e.N != 0 || e.RatesUndefined == "" || e.AlphaUndefined == "" {
			t.Fatalf("empty eval = %+v", e)
		}
	})
}

func TestEvalAssistRun(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	p := assistProject(t, s)
	w, _ := assiststore.New(s).AssistWork(ctx, p.ID)
	r, _ := assiststore.New(s).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single"})
	// Gold from sampleDocs: d1-s1 sentence 1 faithful, sentence 2
	// unfaithful; d2-s1 has no sentence gold.
	for i, label := range []string{"faithful", "faithful", "unfaithful"} {
		must(t, assiststore.New(s).SaveAssistOutput(ctx, r.ID, assiststore.AssistOutput{SentenceID: w.Sentences[i].SentenceID, Label: label, Output: []byte("{}")}))
	}
	e, err := assiststore.New(s).EvalAssistRun(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e.RunID != r.ID || e.N != 2 || e.TN != 1 || e.FN != 1 || e.FPR != 0 || e.FNR != 1 || e.BalancedAccuracy != 0.5 {
		t.Fatalf("eval = %+v", e)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRunCountsFailedOutputs: a run's output counts, the failed ones
// read from their own index, match the outputs saved, and a failed
// output leaves the evaluation, which reads from the gold to the outputs,
// with the ok ones only. Another run's outputs count in neither.
func TestRunCountsFailedOutputs(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	p := assistProject(t, s)
	a := assiststore.New(s)
	w, _ := a.AssistWork(ctx, p.ID)
	r, _ := a.CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single"})
	other, _ := a.CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single"})
	statuses := []string{assiststore.AssistOutputOK, "failed", assiststore.AssistOutputOK}
	for i, st := range statuses {
		must(t, a.SaveAssistOutput(ctx, r.ID, assiststore.AssistOutput{SentenceID: w.Sentences[i].SentenceID, Label: "faithful", Status: st, Output: []byte("{}")}))
		must(t, a.SaveAssistOutput(ctx, other.ID, assiststore.AssistOutput{SentenceID: w.Sentences[i].SentenceID, Label: "unfaithful", Status: "failed", Output: []byte("{}")}))
	}
	got, err := a.AssistRunByID(ctx, r.ID)
	if err != nil || got.Outputs != 3 || got.Failed != 1 {
		t.Fatalf("run: %d outputs, %d failed (%v); want 3 and 1", got.Outputs, got.Failed, err)
	}
	runs, err := a.AssistRuns(ctx, p.ID)
	if err != nil || len(runs) != 2 || runs[0].Failed != 3 || runs[1].Failed != 1 {
		t.Fatalf("runs %+v (%v)", runs, err)
	}
	// Gold (sampleDocs): sentence 1 faithful, sentence 2 unfaithful; the
	// second output failed, so only the first counts.
	e, err := a.EvalAssistRun(ctx, r.ID)
	if err != nil || e.N != 1 || e.TN != 1 {
		t.Fatalf("eval = %+v (%v)", e, err)
	}
	if e, err := a.EvalAssistRun(ctx, other.ID); err != nil || e.N != 0 {
		t.Fatalf("eval of a run with only failed outputs = %+v (%v)", e, err)
	}
}

// TestEvalReadsFromTheGold: the evaluation's query goes from each gold
// sentence to the run's output (a seek), never through every output of
// the run, and finds the output's label in the runs' index of labelled
// results, without reading the output's row.
func TestEvalReadsFromTheGold(t *testing.T) {
	s := testkit.OpenStore(t)
	plan := sqlplan.Of(t, s.Reader(context.Background()), assiststore.EvalPairsQuery, 1)
	p := strings.Join(plan, "; ")
	if !strings.Contains(p, "SEARCH o USING COVERING INDEX assist_outputs_labels (run_id=? AND sentence_id=?)") {
		t.Fatalf("plan: %s", p)
	}
}
