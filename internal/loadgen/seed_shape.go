package loadgen

import (
	"context"
	"database/sql"
	"fmt"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// LeadName is the username of the i-th benchmark lead (from 1).
func LeadName(i int) string { return fmt.Sprintf("lead%02d", i) }

// benchOutput is the assistant result every seeded output carries: the
// shape and size of a real single-protocol result.
const benchOutput = `{"protocol":"single","target":0,` +
	`"advocate":{"label":"faithful","citations":[1,2],"reason":"The sentence restates what the first speakers say about the budget item, and units 1 and 2 give the same figures and the same decision."},` +
	`"skeptic":{"label":"unfaithful","error_type":"nuanced_meaning_shift","citations":[2],"reason":"Unit 2 describes a proposal under discussion; the sentence presents it as a decision the council took, which the document does not state."},` +
	`"adjudicator":{"label":"faithful","report":"The Advocate's reading is supported by units 1 and 2; the Skeptic's concern about a proposal stated as a decision does not hold, since unit 2 records the vote.","citations":[1,2]},` +
	`"ambiguity":{"judged":true,"ambiguous":false,"no_movement":false},"evidence":[1,2],"prompt_version":"bench","model":"bench-model",` +
	`"settings":{"protocol":"single","ambiguity":true,"key_facts":false,"evidence_cap":4,"seed":0,"temperature":0},` +
	`"usage":{"calls":3,"cache_hits":0,"prompt_tokens":2400,"completion_tokens":380,"retries":0,"repairs":0,"failures":0},"status":"ok"}`

// seedDB opens the store's file for the bulk inserts of the seeder, which
// would take hours one store call at a time.
func seedDB(store *tasks.Store) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+store.Path()+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(ON)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// SeedRuns adds n imported assistant runs with an output for every
// sentence of the project, each the shape and size of a real result.
func SeedRuns(ctx context.Context, store *tasks.Store, projectID int64, n int) error {
	if n <= 0 {
		return nil
	}
	db, err := seedDB(store)
	if err != nil {
		return err
	}
	defer db.Close()
	for i := 1; i <= n; i++ {
		res, err := db.ExecContext(ctx, `INSERT INTO assist_runs (project_id, name, protocol, model, status, prompt_version, finished_at)
			VALUES (?, ?, 'single', 'bench-model', 'imported', 'bench', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`, projectID, fmt.Sprintf("bench run %d", i))
		if err != nil {
			return err
		}
		run, _ := res.LastInsertId()
		if _, err := db.ExecContext(ctx, `INSERT INTO assist_outputs (run_id, sentence_id, label, status, output)
			SELECT ?, ss.id, 'faithful', 'ok', ? FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?`,
			run, benchOutput, projectID); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `UPDATE assist_runs SET total = (SELECT count(*) FROM assist_outputs WHERE run_id = ?) WHERE id = ?`, run, run); err != nil {
			return err
		}
	}
	return nil
}

// seedCalibration gives the summaries to the annotators in a calibration
// round "calibration-1", labels every sentence (one in seven unfaithful
// for one annotator, so those sentences wait for adjudication), fills the
// summary labels, submits every assignment and, with resolve, resolves the
// round into gold.
func seedCalibration(ctx context.Context, store *tasks.Store, projectID int64, summaries, annotators []int64, resolve bool) error {
	r, err := store.CreateRound(ctx, projectID, domain.RoundSpec{Name: "calibration-1", Kind: domain.RoundCalibration, Annotators: annotators, Summaries: summaries})
	if err != nil {
		return err
	}
	db, err := seedDB(store)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{
		`INSERT INTO sentence_labels (assignment_id, sentence_id, label, error_types, explanation, ambiguous)
			SELECT a.id, ss.id,
				CASE WHEN (ss.id % 7 = 0 AND a.user_id = (SELECT min(user_id) FROM assignments WHERE round_id = ?1)) THEN 'unfaithful' ELSE 'faithful' END,
				CASE WHEN (ss.id % 7 = 0 AND a.user_id = (SELECT min(user_id) FROM assignments WHERE round_id = ?1)) THEN '["extrinsic_information"]' ELSE '[]' END,
				CASE WHEN (ss.id % 7 = 0 AND a.user_id = (SELECT min(user_id) FROM assignments WHERE round_id = ?1)) THEN 'Not in the document.' ELSE '' END,
				0
			FROM assignments a JOIN summary_sentences ss ON ss.summary_id = a.summary_id WHERE a.round_id = ?1`,
		`INSERT INTO sentence_label_history (assignment_id, sentence_id, user_id, data)
			SELECT l.assignment_id, l.sentence_id, a.user_id, json_object('sentence_id', l.sentence_id, 'label', l.label,
				'error_types', json(l.error_types), 'explanation', l.explanation, 'ambiguous', json('false'))
			FROM sentence_labels l JOIN assignments a ON a.id = l.assignment_id WHERE a.round_id = ?1`,
		`INSERT INTO summary_labels (assignment_id, relevance, topic_category) SELECT id, 4, 'main' FROM assignments WHERE round_id = ?1`,
		`UPDATE assignments SET status = 'submitted', version = 1, started_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
			submitted_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE round_id = ?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, r.ID); err != nil {
			return fmt.Errorf("seed calibration labels: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if resolve {
		_, err = store.ResolveRound(ctx, projectID, r.ID)
	}
	return err
}
