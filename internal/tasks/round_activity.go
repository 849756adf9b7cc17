package tasks

import "context"

// roundActivitySchema keeps, per round and annotator, when they last
// saved a label in the round: the round page's "last active" (with their
// last submission), which otherwise reads every label of the round (1.4 s
// for a round of 1.5M labels). Triggers on sentence_labels keep it for
// saves; imports hold them and write the times of the labels they wrote
// (labelWriter.finish). A label deleted since (a re-import) leaves its
// save's time: the annotator was active then. Migration 36 fills it from
// the labels.
const roundActivitySchema = `CREATE TABLE IF NOT EXISTS round_activity (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    last_at  TEXT NOT NULL,
    PRIMARY KEY (round_id, user_id)
) WITHOUT ROWID;
INSERT OR IGNORE INTO round_activity (round_id, user_id, last_at)
    SELECT a.round_id, a.user_id, max(l.updated_at) FROM sentence_labels l JOIN assignments a ON a.id = l.assignment_id
    GROUP BY a.round_id, a.user_id;
CREATE TRIGGER IF NOT EXISTS round_activity_labels_insert AFTER INSERT ON sentence_labels BEGIN
    INSERT INTO round_activity (round_id, user_id, last_at)
        SELECT a.round_id, a.user_id, NEW.updated_at FROM assignments a WHERE a.id = NEW.assignment_id
        ON CONFLICT (round_id, user_id) DO UPDATE SET last_at = max(last_at, excluded.last_at);
END;
CREATE TRIGGER IF NOT EXISTS round_activity_labels_update AFTER UPDATE OF updated_at ON sentence_labels
    WHEN NEW.updated_at IS NOT OLD.updated_at BEGIN
    INSERT INTO round_activity (round_id, user_id, last_at)
        SELECT a.round_id, a.user_id, NEW.updated_at FROM assignments a WHERE a.id = NEW.assignment_id
        ON CONFLICT (round_id, user_id) DO UPDATE SET last_at = max(last_at, excluded.last_at);
END;`

// noteRoundActivity records that the annotator saved a label in the round
// at at (a stamp), unless a later save is recorded.
func noteRoundActivity(ctx context.Context, q execQuerier, round, user int64, at string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO round_activity (round_id, user_id, last_at) VALUES (?, ?, ?)
		ON CONFLICT (round_id, user_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)`, round, user, at)
	return err
}
