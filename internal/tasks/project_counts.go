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
// and count their project again at the end (recountProject). Migration
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

// projectGoldSchema keeps each project's number of sentences with a gold
// label (gold whose label is not empty: not unresolved), which the
// project page shows: counting them through the project's summaries and
// sentences took 0.17-0.22 s of every view on the 1.5M-label project.
// Triggers keep it: gold written, changed or removed counts in its
// sentence's project; when sentences go (a re-split, or a cascade from
// their summary), a trigger before each one takes its gold off, and
// before each summary goes, its sentences' gold, as the cascaded gold
// then no longer finds its sentence. (REPLACE INTO gold_sentences would
// bypass the delete trigger: nothing writes gold so.) Imports hold the
// gold triggers and count their project again at the end
// (recountProject). Migration 41.
const projectGoldSchema = `CREATE TABLE IF NOT EXISTS project_gold (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    gold       INTEGER NOT NULL
);
INSERT OR REPLACE INTO project_gold (project_id, gold)
    SELECT s.project_id, count(*) FROM summaries s CROSS JOIN summary_sentences ss ON ss.summary_id = s.id
        CROSS JOIN gold_sentences g ON g.sentence_id = ss.id WHERE g.label != '' GROUP BY s.project_id;
CREATE TRIGGER IF NOT EXISTS project_counts_gold_insert AFTER INSERT ON gold_sentences WHEN NEW.label != '' BEGIN
    INSERT INTO project_gold (project_id, gold)
        SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET gold = gold + 1;
END;
CREATE TRIGGER IF NOT EXISTS project_counts_gold_delete AFTER DELETE ON gold_sentences WHEN OLD.label != '' BEGIN
    UPDATE project_gold SET gold = gold - 1 WHERE project_id =
        (SELECT s.project_id FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id);
END;
CREATE TRIGGER IF NOT EXISTS project_counts_gold_update AFTER UPDATE OF label, sentence_id ON gold_sentences
    WHEN (OLD.label != '') != (NEW.label != '') OR OLD.sentence_id != NEW.sentence_id BEGIN
    UPDATE project_gold SET gold = gold - (OLD.label != '') WHERE project_id =
        (SELECT s.project_id FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id);
    INSERT INTO project_gold (project_id, gold)
        SELECT s.project_id, NEW.label != '' FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET gold = gold + excluded.gold;
END;
CREATE TRIGGER IF NOT EXISTS project_counts_gold_sentences_delete BEFORE DELETE ON summary_sentences BEGIN
    UPDATE project_gold SET gold = gold - (SELECT count(*) FROM gold_sentences g WHERE g.sentence_id = OLD.id AND g.label != '')
        WHERE project_id = (SELECT s.project_id FROM summaries s WHERE s.id = OLD.summary_id);
END;
CREATE TRIGGER IF NOT EXISTS project_counts_gold_summaries_delete BEFORE DELETE ON summaries BEGIN
    UPDATE project_gold SET gold = gold - (SELECT count(*) FROM summary_sentences ss CROSS JOIN gold_sentences g ON g.sentence_id = ss.id
        WHERE ss.summary_id = OLD.id AND g.label != '')
        WHERE project_id = OLD.project_id;
END;`

// recountProject counts a project's sentences and gold again into
// project_counts and project_gold (every project's for 0), for an import
// that held the sentence and gold triggers.
func recountProject(ctx context.Context, tx *sql.Tx, projectID int64) error {
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO project_counts (project_id, sentences)
		SELECT p.id, (SELECT count(*) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = p.id)
		FROM projects p WHERE p.id = ?1 OR ?1 = 0`, projectID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO project_gold (project_id, gold)
		SELECT p.id, (SELECT count(*) FROM summaries s CROSS JOIN summary_sentences ss ON ss.summary_id = s.id
			CROSS JOIN gold_sentences g ON g.sentence_id = ss.id WHERE s.project_id = p.id AND g.label != '')
		FROM projects p WHERE p.id = ?1 OR ?1 = 0`, projectID)
	return err
}
