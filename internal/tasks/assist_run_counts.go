package tasks

// assistRunCountsSchema keeps each assistant run's number of results,
// which the assistant runs page and a run's page show beside its total
// (its progress while it runs): counting them read the run's key on
// assist_outputs, 108 ms for a run of 1.65M results, on every view.
// Triggers keep it: a result written for a sentence the run has none for
// counts one, a rewritten result (an upsert's update) none, a deleted one
// minus one. An import of runs holds the triggers and counts its runs
// once at the end (see assiststore's holdOutputTriggers). Migration 38
// fills it.
const assistRunCountsSchema = `CREATE TABLE IF NOT EXISTS assist_run_counts (
    run_id  INTEGER PRIMARY KEY REFERENCES assist_runs(id) ON DELETE CASCADE,
    outputs INTEGER NOT NULL
);
INSERT OR REPLACE INTO assist_run_counts (run_id, outputs)
    SELECT r.id, (SELECT count(*) FROM assist_outputs o WHERE o.run_id = r.id) FROM assist_runs r;
CREATE TRIGGER IF NOT EXISTS assist_run_counts_insert AFTER INSERT ON assist_outputs BEGIN
    INSERT INTO assist_run_counts (run_id, outputs) VALUES (NEW.run_id, 1)
        ON CONFLICT (run_id) DO UPDATE SET outputs = outputs + 1;
END;
CREATE TRIGGER IF NOT EXISTS assist_run_counts_delete AFTER DELETE ON assist_outputs BEGIN
    UPDATE assist_run_counts SET outputs = outputs - 1 WHERE run_id = OLD.run_id;
END;
CREATE TRIGGER IF NOT EXISTS assist_run_counts_update AFTER UPDATE OF run_id ON assist_outputs
    WHEN OLD.run_id IS NOT NEW.run_id BEGIN
    UPDATE assist_run_counts SET outputs = outputs - 1 WHERE run_id = OLD.run_id;
    INSERT INTO assist_run_counts (run_id, outputs) VALUES (NEW.run_id, 1)
        ON CONFLICT (run_id) DO UPDATE SET outputs = outputs + 1;
END;`

// AssistRunCountsQuery counts runs' results again into assist_run_counts:
// its one argument is a JSON array of run ids. An import of runs, which
// holds the triggers that keep the counts, runs it for the runs it wrote.
const AssistRunCountsQuery = `INSERT OR REPLACE INTO assist_run_counts (run_id, outputs)
    SELECT r.id, (SELECT count(*) FROM assist_outputs o WHERE o.run_id = r.id)
    FROM assist_runs r WHERE r.id IN (SELECT value FROM json_each(?))`
