package tasks

import (
	"context"
	"database/sql"
	"strings"
)

// roundCountsSchema keeps, per round and annotator, their assignments by
// status, the sum of their active seconds and when they last submitted:
// the round page's progress table, which otherwise groups every
// assignment of the round (0.14 s a view for a round of 300,000, through
// an index holding every column it reads). Triggers on assignments keep
// it; imports and large rounds hold them with the
// other counters and count their project again (recountRoundCounts). An
// annotator's given-out work is submitted + in_progress + pending; a row
// whose four counts are 0 (every assignment deleted) stands for none.
// last_submit, like round_activity's last_at, keeps a submission's time
// when it is undone later (a re-import): the annotator was active then.
// Migration 42 fills it from the assignments.
const roundCountsSchema = `CREATE TABLE IF NOT EXISTS round_counts (
    round_id       INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    submitted      INTEGER NOT NULL DEFAULT 0,
    in_progress    INTEGER NOT NULL DEFAULT 0,
    pending        INTEGER NOT NULL DEFAULT 0,
    released       INTEGER NOT NULL DEFAULT 0,
    active_seconds INTEGER NOT NULL DEFAULT 0,
    last_submit    TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (round_id, user_id)
) WITHOUT ROWID;
` + roundCountsFill + `;
CREATE TRIGGER IF NOT EXISTS round_counts_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO round_counts (round_id, user_id, submitted, in_progress, pending, released, active_seconds, last_submit)
        VALUES (NEW.round_id, NEW.user_id, NEW.status = 'submitted', NEW.status = 'in_progress', NEW.status = 'pending',
            NEW.status = 'released', NEW.active_seconds, coalesce(NEW.submitted_at, ''))
        ON CONFLICT (round_id, user_id) DO UPDATE SET ` + roundCountsAdd + `;
END;
CREATE TRIGGER IF NOT EXISTS round_counts_delete AFTER DELETE ON assignments BEGIN
    ` + roundCountsTakeOld + `;
END;
CREATE TRIGGER IF NOT EXISTS round_counts_update AFTER UPDATE OF status, active_seconds, submitted_at, user_id, round_id ON assignments
    WHEN OLD.status IS NOT NEW.status OR OLD.active_seconds IS NOT NEW.active_seconds OR OLD.submitted_at IS NOT NEW.submitted_at
        OR OLD.user_id IS NOT NEW.user_id OR OLD.round_id IS NOT NEW.round_id BEGIN
    ` + roundCountsTakeOld + `;
    INSERT INTO round_counts (round_id, user_id, submitted, in_progress, pending, released, active_seconds, last_submit)
        VALUES (NEW.round_id, NEW.user_id, NEW.status = 'submitted', NEW.status = 'in_progress', NEW.status = 'pending',
            NEW.status = 'released', NEW.active_seconds, coalesce(NEW.submitted_at, ''))
        ON CONFLICT (round_id, user_id) DO UPDATE SET ` + roundCountsAdd + `;
END`

// roundCountsFill counts the assignments of the rounds that ?1 selects
// (see recountRoundCounts; every round in the migration) into
// round_counts, keeping a later last_submit already there.
const roundCountsFill = `INSERT INTO round_counts (round_id, user_id, submitted, in_progress, pending, released, active_seconds, last_submit)
    SELECT round_id, user_id, sum(status = 'submitted'), sum(status = 'in_progress'), sum(status = 'pending'), sum(status = 'released'),
        sum(active_seconds), max(coalesce(submitted_at, '')) FROM assignments
    WHERE true GROUP BY round_id, user_id
    ON CONFLICT (round_id, user_id) DO UPDATE SET submitted = excluded.submitted, in_progress = excluded.in_progress,
        pending = excluded.pending, released = excluded.released, active_seconds = excluded.active_seconds,
        last_submit = max(last_submit, excluded.last_submit)`

// roundCountsAdd adds a row's counts (excluded) to its annotator's.
const roundCountsAdd = `submitted = submitted + excluded.submitted, in_progress = in_progress + excluded.in_progress,
            pending = pending + excluded.pending, released = released + excluded.released,
            active_seconds = active_seconds + excluded.active_seconds, last_submit = max(last_submit, excluded.last_submit)`

// roundCountsTakeOld takes the OLD assignment off its annotator's counts.
const roundCountsTakeOld = `UPDATE round_counts SET submitted = submitted - (OLD.status = 'submitted'), in_progress = in_progress - (OLD.status = 'in_progress'),
        pending = pending - (OLD.status = 'pending'), released = released - (OLD.status = 'released'),
        active_seconds = active_seconds - OLD.active_seconds
        WHERE round_id = OLD.round_id AND user_id = OLD.user_id`

// recountRoundCounts counts the assignments of the rounds in scope into
// round_counts again, for a write that held its triggers, as they would
// have kept it: an annotator with no assignment left has zero counts, and
// last_submit keeps its latest time.
func recountRoundCounts(ctx context.Context, tx *sql.Tx, sc countScope) error {
	scope, arg := sc.rounds()
	if _, err := tx.ExecContext(ctx, `UPDATE round_counts SET submitted = 0, in_progress = 0, pending = 0, released = 0, active_seconds = 0
		WHERE `+scope, arg); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, strings.Replace(roundCountsFill, "WHERE true", "WHERE "+scope, 1), arg)
	return err
}
