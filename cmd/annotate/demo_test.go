package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// TestDemoCalibrationFillsTheQueue: the demo's calibration summaries come
// without gold, so once its three annotators submit labels that differ,
// the adjudication queue has sentences to decide, and no imported gold
// hides them.
func TestDemoCalibrationFillsTheQueue(t *testing.T) {
	ctx := context.Background()
	store := openDB(t, filepath.Join(t.TempDir(), "demo.db"))
	if err := app.New(store).SetupDemo(ctx, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	p, err := store.ProjectBySlug(ctx, app.DemoSlug)
	if err != nil {
		t.Fatal(err)
	}
	rounds := must(store.Rounds(ctx, p.ID))(t)
	if len(rounds) != 1 || rounds[0].Kind != domain.RoundCalibration {
		t.Fatalf("demo rounds %+v", rounds)
	}
	no := false
	sentences := 0
	for k, name := range []string{"ann1", "ann2", "ann3"} {
		u, err := store.UserByName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		q, err := store.QueueEntries(ctx, p.ID, u.ID)
		if err != nil || len(q) == 0 {
			t.Fatalf("queue of %s: %d, %v", name, len(q), err)
		}
		n := 0
		for _, a := range q {
			gold, err := store.SummaryGold(ctx, a.SummaryID)
			if err != nil || len(gold) > 0 {
				t.Fatalf("calibration summary %d has imported gold (%v)", a.SummaryID, err)
			}
			sum := must(store.Summary(ctx, a.SummaryID))(t)
			v := a.Version
			for _, x := range sum.Sentences {
				n++
				// ann1 calls everything faithful, ann2 every third
				// sentence unfaithful, ann3 every fourth.
				l := domain.SentenceLabel{SentenceID: x.ID, Label: domain.LabelFaithful, Ambiguous: &no}
				if (k == 1 && n%3 == 0) || (k == 2 && n%4 == 0) {
					l.Label, l.ErrorTypes, l.Explanation = domain.LabelUnfaithful, []string{"extrinsic_information"}, "Not in the transcript."
				}
				if v, err = store.SaveSentenceLabel(ctx, a.ID, u.ID, v, l); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := store.SaveSummaryLabel(ctx, a.ID, u.ID, v, domain.SummaryLabel{Relevance: 4, TopicCategory: "main"}); err != nil {
				t.Fatal(err)
			}
			if err := store.Submit(ctx, a.ID, u.ID); err != nil {
				t.Fatalf("submit %s: %v", name, err)
			}
		}
		sentences = n
	}
	st, err := store.ResolveReady(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := store.PendingSentences(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Sentences 3, 4, 6, 8, 9, 12, 15, 16 and 18 of 18 split the three.
	if len(pending) != 9 || sentences != 18 {
		t.Errorf("%d sentences wait for adjudication of %d (resolution %+v), want 9 of 18", len(pending), sentences, st)
	}
}

// TestAssignDeals: `annotate assign` draws 10 of the demo's summaries
// and gives each to 2 of the 3 annotators, loads within one summary of
// each other; naming the project's lead as an annotator is refused with
// the reason, and writes nothing.
func TestAssignDeals(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "assign.db")
	store := openDB(t, db)
	if err := app.New(store).SetupDemo(ctx, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	p := must(store.ProjectBySlug(ctx, "demo"))(t)
	before := must(store.Rounds(ctx, p.ID))(t)
	_, _, err := runCmd(t, "", nil, "assign", "--db", db, "--project", "demo", "--round", "cli", "--per-item", "1", "--annotators", "ann1,lead")
	if err == nil || !strings.Contains(err.Error(), `annotators[1]: "lead" is a lead of this project, not an annotator`) {
		t.Fatalf("a lead dealt work: %v", err)
	}
	if after := must(store.Rounds(ctx, p.ID))(t); len(after) != len(before) {
		t.Fatal("a refused round was written")
	}
	var out strings.Builder
	err = run(ctx, []string{"assign", "--db", db, "--project", "demo", "--round", "cli", "--per-item", "2", "--annotators", "ann1,ann2,ann3", "--sample", "10", "--seed", "5"},
		func(string) string { return "" }, strings.NewReader(""), &out, io.Discard)
	if err != nil {
		t.Fatalf("assign: %v\n%s", err, out.String())
	}
	cli, err := store.RoundByName(ctx, p.ID, "cli")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := store.RoundAssignments(ctx, cli.ID)
	if err != nil {
		t.Fatal(err)
	}
	who := map[int64]map[string]bool{}
	for _, r := range rows {
		if who[r.SummaryID] == nil {
			who[r.SummaryID] = map[string]bool{}
		}
		who[r.SummaryID][r.Username] = true
	}
	if len(rows) != 20 || len(who) != 10 {
		t.Fatalf("%d assignments of %d summaries, want 20 of 10", len(rows), len(who))
	}
	for id, names := range who {
		if len(names) != 2 {
			t.Errorf("summary %d went to %v, want two annotators", id, names)
		}
	}
	// 10 summaries x 2 over three annotators: 7, 7 and 6.
	for _, want := range []string{"ann1: 7", "ann2: 7", "ann3: 6"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("assign output lacks %q:\n%s", want, out.String())
		}
	}
}
