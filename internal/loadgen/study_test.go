package loadgen_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"

	"annotate/internal/app"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/export"
	"annotate/internal/loadgen"
	"annotate/internal/tasks"
	"annotate/internal/web"
)

// TestStudyRecoversPlantedValues plays a plan through a real server on a
// loopback port (a real SQLite file) with the study mode of the load
// generator: 18 participants, three conditions randomised by participant,
// 60 two-sentence summaries with gold and an assistant run right on 80%
// of sentences. Participants enter one after another: the server numbers
// them by entry, which decides their condition and items, so a run with
// several at once differs with timing; one at a time, every run is the
// same. The experiment report must hold each planted figure
// (experiment.Planted) inside its 95% interval, must not hold a value
// planted 0.25 away, and its point figures must be what the raw export's
// rows give when counted independently here.
func TestStudyRecoversPlantedValues(t *testing.T) {
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "study.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	p, err := store.CreateProject(ctx, domain.Project{Slug: "crowd", Name: "Crowd", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	var docs []domain.DocumentInput
	n := 0
	for i := range 60 {
		var sents []domain.SentenceInput
		for j := range 2 {
			g := &domain.GoldInput{Label: domain.LabelFaithful}
			if n%10 == 1 || n%10 == 4 || n%10 == 7 { // 30% unfaithful
				g = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"extrinsic_information"}, Explanation: "Not in the document."}
			}
			sents = append(sents, domain.SentenceInput{Text: fmt.Sprintf("Statement %d of summary %d.", j+1, i), Gold: g})
			n++
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met on Monday."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: sents}}})
	}
	if _, err := store.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	// The assistant is wrong on every fifth sentence, in either class.
	ids, _ := store.SummaryIDs(ctx, p.ID, nil)
	var outs []assiststore.AssistOutput
	k, right := 0, 0
	for _, id := range ids {
		sum, _ := store.Summary(ctx, id)
		gold, _ := store.SummaryGold(ctx, id)
		for _, s := range sum.Sentences {
			label := gold[s.ID].Label
			if k%5 == 2 {
				label = map[string]string{"faithful": "unfaithful", "unfaithful": "faithful"}[label]
			} else {
				right++
			}
			k++
			outs = append(outs, assiststore.AssistOutput{SentenceID: s.ID, Label: label, Status: assiststore.AssistOutputOK, Output: []byte(fmt.Sprintf(
				`{"protocol":"single","adjudicator":{"label":%q,"report":"The document says so.","citations":[1]},"evidence":[1],"status":"ok"}`, label))})
		}
	}
	if _, err := assiststore.New(store).ImportAssistRuns(ctx, p.ID, []assiststore.AssistRunImport{{Run: assiststore.AssistRun{Protocol: "single"}, Outputs: outs}}); err != nil {
		t.Fatal(err)
	}
	ops := app.New(store)
	st, err := ops.CreateStudy(ctx, p, "exp", []byte(`{"round":"crowd","conditions":["none","verdict","debate"],"seed":5,"k":3,
		"items_per_participant":10,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)

	plan, err := experiment.ParsePlan([]byte(`{"participants":18,"items_per_participant":10,"k":3,
		"accuracy":{"none":0.7,"verdict":0.8,"debate":0.9},"follow_when_visible":0.5,"seconds_per_sentence":1,"seed":3}`))
	if err != nil {
		t.Fatal(err)
	}
	plan.AssistantAccuracy = float64(right) / float64(k) // what the project's run is
	res, err := loadgen.RunStudy(ctx, loadgen.StudyOptions{BaseURL: srv.URL, DB: filepath.Join(t.TempDir(), "missing.db"),
		Project: "crowd", Study: "exp", Plan: plan, Concurrency: 1})
	if err == nil {
		t.Fatalf("a database file that is not there: %+v", res)
	}
	res, err = loadgen.RunStudy(ctx, loadgen.StudyOptions{BaseURL: srv.URL, DB: store.Path(), Project: "crowd", Study: "exp", Plan: plan, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != 0 || res.Participants != 18 || res.Outcomes["completed"] != 18 || res.Mismatches != 0 {
		var b bytes.Buffer
		res.WriteStudy(&b)
		t.Fatalf("the run: %d failed, outcomes %v, %d pages against their condition; errors %v\n%s", res.Failed, res.Outcomes, res.Mismatches, res.Errors, b.String())
	}

	rep, err := ops.ReportStudy(ctx, st, experiment.Options{Replicates: 400, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Participants.Entered != 18 || rep.Participants.Completed != 18 || rep.Observations != 18*10*2 {
		t.Fatalf("report: %+v", rep)
	}
	for _, c := range plan.Conditions {
		for _, f := range []experiment.Figure{experiment.Accuracy, experiment.BalancedAccuracy, experiment.FollowedWhenWrong, experiment.WrongEqualAssistant} {
			e, ok := rep.Conditions[c][f.String()]
			want := experiment.Planted(plan, c, f)
			if !ok || math.IsNaN(want) {
				t.Fatalf("%s %s: no figure (%v) or no planted value", c, f, ok)
			}
			if want < e.CI[0] || want > e.CI[1] {
				t.Errorf("%s %s: planted %.3f outside the report's interval [%.3f, %.3f] (value %.3f)", c, f, want, e.CI[0], e.CI[1], e.Value)
			}
			if f == experiment.Accuracy && (want+0.25 >= e.CI[0] && want+0.25 <= e.CI[1] || want-0.25 >= e.CI[0] && want-0.25 <= e.CI[1]) {
				t.Errorf("%s accuracy: the interval [%.3f, %.3f] also holds a value planted 0.25 away from %.3f", c, e.CI[0], e.CI[1], want)
			}
		}
	}

	for _, c := range plan.Conditions {
		t.Logf("%s: accuracy %.3f [%.3f, %.3f] planted %.3f; followed when wrong %.3f planted %.3f", c, rep.Conditions[c]["accuracy"].Value, rep.Conditions[c]["accuracy"].CI[0], rep.Conditions[c]["accuracy"].CI[1], experiment.Planted(plan, c, experiment.Accuracy), rep.Conditions[c]["followed_when_wrong"].Value, experiment.Planted(plan, c, experiment.FollowedWhenWrong))
	}
	// The raw export's rows give the report's point accuracy.
	x, err := export.New(ctx, store, p, export.Options{What: export.Raw, Format: export.CSV})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.Write(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		i := slices.Index(rows[0], name)
		if i < 0 {
			t.Fatalf("raw export has no %s column", name)
		}
		return i
	}
	hits, all := map[string]int{}, map[string]int{}
	for _, r := range rows[1:] {
		if r[col("study")] != "exp" || r[col("excluded")] == "true" || r[col("attention_check")] == "true" || r[col("assignment_status")] != "submitted" || r[col("gold_label")] == "" {
			continue
		}
		c := r[col("condition")]
		all[c]++
		if r[col("label")] == r[col("gold_label")] {
			hits[c]++
		}
	}
	for _, c := range plan.Conditions {
		got := float64(hits[c]) / float64(all[c])
		if e := rep.Conditions[c]["accuracy"]; all[c] == 0 || math.Abs(e.Value-got) > 1e-12 {
			t.Errorf("%s: the export's rows give accuracy %d/%d = %.4f, the report %.4f", c, hits[c], all[c], got, e.Value)
		}
	}
}
