package assiststore_test

import (
	"context"
	"database/sql"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// TestRunOutputCountsFollowWrites: each run's number of results, kept by
// triggers, equals a count of its results after new results, a result
// written again, an import (which holds the triggers and counts its runs
// at the end), a write after the import (the triggers are back) and a
// sentence deleted with its results; the migration that brings the
// counts in fills them.
func TestRunOutputCountsFollowWrites(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	p := assistProject(t, s)
	a := assiststore.New(s)
	w, err := a.AssistWork(ctx, p.ID)
	if err != nil || len(w.Sentences) < 3 {
		t.Fatalf("work: %d sentences (%v)", len(w.Sentences), err)
	}
	check := func(what string) {
		t.Helper()
		runs, err := a.AssistRuns(ctx, p.ID)
		if err != nil || len(runs) == 0 {
			t.Fatalf("after %s: runs %v (%v)", what, runs, err)
		}
		for _, r := range runs {
			var n int
			if err := s.Reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM assist_outputs WHERE run_id = ?`, r.ID).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if r.Outputs != n {
				t.Fatalf("after %s: run %d shows %d results, has %d", what, r.ID, r.Outputs, n)
			}
			one, err := a.AssistRunByID(ctx, r.ID)
			if err != nil || one.Outputs != n {
				t.Fatalf("after %s: run %d's page shows %d results, has %d (%v)", what, r.ID, one.Outputs, n, err)
			}
		}
	}
	out := func(i int, label string) assiststore.AssistOutput {
		return assiststore.AssistOutput{SentenceID: w.Sentences[i].SentenceID, Label: label, Output: []byte("{}")}
	}
	r, err := a.CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single"})
	if err != nil {
		t.Fatal(err)
	}
	check("a new run")
	must(t, a.SaveAssistOutput(ctx, r.ID, out(0, "faithful")))
	must(t, a.SaveAssistOutput(ctx, r.ID, out(1, "faithful")))
	check("two results")
	must(t, a.SaveAssistOutput(ctx, r.ID, out(0, "unfaithful")))
	check("a result written again")
	var outs []assiststore.AssistOutput
	for i := range w.Sentences {
		outs = append(outs, out(i, "faithful"))
	}
	if _, err := a.ImportAssistRuns(ctx, p.ID, []assiststore.AssistRunImport{{Run: assiststore.AssistRun{Name: "imported", Protocol: "single"}, Outputs: outs}}); err != nil {
		t.Fatal(err)
	}
	check("an import")
	must(t, a.SaveAssistOutput(ctx, r.ID, out(2, "faithful")))
	check("a result after the import")
	err = s.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM summary_sentences WHERE id = ?`, w.Sentences[1].SentenceID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	check("a sentence deleted")
	// A database from before the counts: the migration fills them.
	err = s.WriteTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{`DROP TRIGGER assist_run_counts_insert`, `DROP TRIGGER assist_run_counts_delete`,
			`DROP TRIGGER assist_run_counts_update`, `DROP TABLE assist_run_counts`, `PRAGMA user_version = 37`} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	s.Close()
	if s, err = tasks.Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a = assiststore.New(s)
	check("the migration")
}
