package tasks

import (
	"context"
	"database/sql"
)

// projectCountsSchema keeps each project's number of summary sentences,
// which its overview shows (the project page, the assistant runs page):
// counting them took 275 ms at 1.65M sentences. Triggers keep it: a
// sentence added or removed directly counts in its summary's project;
// when summaries go (a cascade from their document or project), a trigger
// before each one takes its sentences off, as the cascaded sentences
// then no longer find their summary. Imports hold the sentence triggers
// and count their project again at the end (recountSentences). Migration
// 37 fills it.
const projectCountsSchema = `CREATE TABLE IF NOT EXISTS project_counts (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    sentences  INTEGER NOT NULL
);
INSERT OR REPLACE INTO project_counts (project_id, sentences)
    SELECT s.project_id, count(*) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id GROUP BY s.project_id;
CREATE TRIGGER IF NOT EXISTS project_counts_sentences_insert AFTER INSERT ON summary_sentences BEGIN
    INSERT INTO project_counts (project_id, sentences) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET sentences = sentences + 1;
END;
CREATE TRIGGER IF NOT EXISTS project_counts_sentences_delete AFTER DELETE ON summary_sentences BEGIN
    UPDATE project_counts SET sentences = sentences - 1
        WHERE project_id = (SELECT s.project_id FROM summaries s WHERE s.id = OLD.summary_id);
END;
CREATE TRIGGER IF NOT EXISTS project_counts_summaries_delete BEFORE DELETE ON summaries BEGIN
    UPDATE project_counts SET sentences = sentences - (SELECT count(*) FROM summary_sentences WHERE summary_id = OLD.id)
        WHERE project_id = OLD.project_id;
END;`

// recountSentences counts a project's sentences again into
// project_counts (every project's for 0), for an import that held the
// sentence triggers.
func recountSentences(ctx context.Context, tx *sql.Tx, projectID int64) error {
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO project_counts (project_id, sentences)
		SELECT p.id, (SELECT count(*) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = p.id)
		FROM projects p WHERE p.id = ?1 OR ?1 = 0`, projectID)
	return err
}
