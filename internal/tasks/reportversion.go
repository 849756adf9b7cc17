package tasks

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// reportVersionsSQL creates the report_versions counter and the triggers
// that bump it (migration 9; schema.sql is written from the migrations);
// it is safe to run on a database that has it already.
const reportVersionsSQL = `-- A counter per project that every write to what the agreement report reads
-- bumps (triggers below), so that a cached report is known to be current
-- with one primary-key lookup.
CREATE TABLE IF NOT EXISTS report_versions (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS report_version_sentence_labels_insert AFTER INSERT ON sentence_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_sentence_labels_update AFTER UPDATE ON sentence_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_sentence_labels_delete AFTER DELETE ON sentence_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_summary_labels_insert AFTER INSERT ON summary_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_summary_labels_update AFTER UPDATE ON summary_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_summary_labels_delete AFTER DELETE ON summary_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_keyfact_labels_insert AFTER INSERT ON keyfact_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_keyfact_labels_update AFTER UPDATE ON keyfact_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_keyfact_labels_delete AFTER DELETE ON keyfact_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assignments_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = NEW.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assignments_update AFTER UPDATE ON assignments BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = NEW.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assignments_delete AFTER DELETE ON assignments BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = OLD.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_rounds_insert AFTER INSERT ON rounds BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_rounds_update AFTER UPDATE ON rounds BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_rounds_delete AFTER DELETE ON rounds BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = OLD.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_gold_sentences_insert AFTER INSERT ON gold_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_gold_sentences_update AFTER UPDATE ON gold_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_gold_sentences_delete AFTER DELETE ON gold_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_gold_summaries_insert AFTER INSERT ON gold_summaries BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_gold_summaries_update AFTER UPDATE ON gold_summaries BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_gold_summaries_delete AFTER DELETE ON gold_summaries BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = OLD.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_summary_sentences_insert AFTER INSERT ON summary_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_summary_sentences_update AFTER UPDATE ON summary_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_summary_sentences_delete AFTER DELETE ON summary_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = OLD.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_key_facts_insert AFTER INSERT ON key_facts BEGIN
    INSERT INTO report_versions (project_id, version) SELECT d.project_id, 1 FROM documents d WHERE d.id = NEW.document_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_key_facts_update AFTER UPDATE ON key_facts BEGIN
    INSERT INTO report_versions (project_id, version) SELECT d.project_id, 1 FROM documents d WHERE d.id = NEW.document_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_key_facts_delete AFTER DELETE ON key_facts BEGIN
    INSERT INTO report_versions (project_id, version) SELECT d.project_id, 1 FROM documents d WHERE d.id = OLD.document_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assist_runs_insert AFTER INSERT ON assist_runs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assist_runs_update AFTER UPDATE ON assist_runs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assist_runs_delete AFTER DELETE ON assist_runs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = OLD.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assist_outputs_insert AFTER INSERT ON assist_outputs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assist_outputs_update AFTER UPDATE ON assist_outputs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assist_outputs_delete AFTER DELETE ON assist_outputs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = OLD.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;`

// exportVersionsSQL extends the counter to what exports read beside the
// report (migration 15).
const exportVersionsSQL = `-- The counter also follows what exports read beside the report: rating
-- scale values, flags, skips and document metadata, so that one counter
-- tells whether a project's report or exports can have changed.
CREATE TRIGGER IF NOT EXISTS report_version_scale_scores_insert AFTER INSERT ON scale_scores BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_scale_scores_update AFTER UPDATE ON scale_scores BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_scale_scores_delete AFTER DELETE ON scale_scores BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_sentence_flags_insert AFTER INSERT ON sentence_flags BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_sentence_flags_update AFTER UPDATE ON sentence_flags BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_sentence_flags_delete AFTER DELETE ON sentence_flags BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assignment_skips_insert AFTER INSERT ON assignment_skips BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assignment_skips_update AFTER UPDATE ON assignment_skips BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_assignment_skips_delete AFTER DELETE ON assignment_skips BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS report_version_documents_update AFTER UPDATE ON documents BEGIN
    INSERT INTO report_versions (project_id, version) VALUES (NEW.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;`

// ReportVersion returns a number that changes whenever anything the
// agreement report of the project reads changes: labels, assignments,
// rounds, gold, sentences, key facts, assistant runs, rating scale values,
// flags, skips or document metadata (the project's
// settings are not counted; callers add them to their cache keys). It is
// one primary-key lookup.
func (s *Store) ReportVersion(ctx context.Context, projectID int64) (int64, error) {
	v, err := s.version(ctx, "report_versions", projectID)
	return v, domain.Op("Store.ReportVersion", err)
}

// version reads a project's counter in one of the version tables
// (report_versions, eval_versions); 0 when it was never bumped.
func (s *Store) version(ctx context.Context, table string, projectID int64) (int64, error) {
	var v int64
	err := s.read.QueryRowContext(ctx, `SELECT version FROM `+table+` WHERE project_id = ?`, projectID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, err
}
