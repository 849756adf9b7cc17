package tasks

import (
	"context"
	"database/sql"
	"strings"

	"annotate/internal/domain"
)

// The assistant page compares each run's labels with the gold labels.
// That evaluation changes only when gold or a run's results change, but
// the report version changes with every label an annotator saves. So
// while annotators labelled, every view of the page computed each run's
// evaluation again: 0.3-0.4 s a run on the 1.5M-label project.
//
// The eval version is a second counter per project (eval_versions),
// bumped by triggers of its own on gold_sentences and assist_outputs.
// Imports and bulk writes that hold the report's triggers hold these too
// and bump both counters when they release them (see
// heldTriggers.release).

// evalVersionTriggers are the triggers that bump the eval version: each
// names its table, its event and how it finds the row's project.
var evalVersionTriggers = []struct{ table, event, project string }{
	{"gold_sentences", "INSERT", "SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id"},
	{"gold_sentences", "UPDATE", "SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id"},
	{"gold_sentences", "DELETE", "SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id"},
	{"assist_outputs", "INSERT", "SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id"},
	{"assist_outputs", "UPDATE", "SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id"},
	{"assist_outputs", "DELETE", "SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = OLD.run_id"},
}

// evalVersionSchema makes the eval version's table and triggers
// (migration 43).
func evalVersionSchema() string {
	var b strings.Builder
	b.WriteString(`-- A counter per project that only writes of gold and of the assistant's
-- results bump, for the assistant page's evaluations of runs against gold.
CREATE TABLE IF NOT EXISTS eval_versions (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL
);
`)
	for _, t := range evalVersionTriggers {
		b.WriteString("CREATE TRIGGER IF NOT EXISTS eval_version_" + t.table + "_" + strings.ToLower(t.event) +
			" AFTER " + t.event + " ON " + t.table + " BEGIN\n" +
			"    INSERT INTO eval_versions (project_id, version) " + t.project + "\n" +
			"        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;\nEND;\n")
	}
	return b.String()
}

// bumpVersions bumps a project's report and eval versions once, for the
// writes of an import or bulk write that held their triggers.
func bumpVersions(ctx context.Context, tx *sql.Tx, projectID int64) error {
	for _, table := range []string{"report_versions", "eval_versions"} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (project_id, version) VALUES (?, 1)
			ON CONFLICT (project_id) DO UPDATE SET version = version + 1`, projectID); err != nil {
			return err
		}
	}
	return nil
}

// BumpVersions is bumpVersions for the assistant's store, whose imports
// hold the triggers of assist_outputs.
func BumpVersions(ctx context.Context, tx *sql.Tx, projectID int64) error {
	return domain.Op("BumpVersions", bumpVersions(ctx, tx, projectID))
}

// EvalVersion returns a number that changes whenever a project's gold
// labels or its assistant runs' results change, and not when annotators
// save labels: what an evaluation of a run against the gold depends on.
func (s *Store) EvalVersion(ctx context.Context, projectID int64) (int64, error) {
	v, err := s.version(ctx, "eval_versions", projectID)
	return v, domain.Op("Store.EvalVersion", err)
}
