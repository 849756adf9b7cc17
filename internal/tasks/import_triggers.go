package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"

	"annotate/internal/domain"
)

// heldTriggers are the counters' triggers (see holdReportTriggers) an
// import has dropped inside its transaction, with the text that makes
// them again.
type heldTriggers struct {
	sql DroppedTriggers
	// gold names the gold index triggers held too (see
	// holdReportTriggers).
	gold []string
}

// The triggers that mark gold index rows stale for each row written,
// which a bulk write may hold and do the work of once.
const (
	// labelGoldTrigger marks stale, for every label written, the row of
	// its sentence when that sentence's gold waits (unresolved or
	// imported): see markLabelledStale.
	labelGoldTrigger = "gold_tallies_labels_insert"
	// dealtGoldTrigger marks stale, for every assignment made, the rows of
	// its summary's gold sentences: see markDealtGoldStale.
	dealtGoldTrigger = "gold_tallies_assignments_insert"
)

// holds reports whether the gold index trigger name is held.
func (h *heldTriggers) holds(name string) bool { return slices.Contains(h.gold, name) }

// holdReportTriggers drops the triggers that bump report_versions,
// eval_versions and membership_rounds and keep queue_blocks, study_items.dealt,
// round_activity (which the label writer keeps itself), round_counts and
// the sentence and gold counts of project_counts, inside
// an import's transaction: an import writes hundreds of thousands of rows
// of one project, and each would bump the same counter (a join and an
// upsert per row, and a scan when the planner's statistics are those of a
// nearly empty table; study_items.dealt's update, per assignment, took
// half the time of writing the assignments). release makes them again
// from their own text, bumps the counters once and counts the project's
// queues and its study items' deals again (see [DropTriggers] for why
// this is safe inside the transaction).
//
// It also holds the gold index triggers named in gold (labelGoldTrigger,
// dealtGoldTrigger), whose work the caller must do once before release
// (markLabelledStale, markDealtGoldStale).
func holdReportTriggers(ctx context.Context, tx *sql.Tx, gold ...string) (*heldTriggers, error) {
	names, err := json.Marshal(append([]string{}, gold...))
	if err != nil {
		return nil, err
	}
	dropped, err := dropTriggers(ctx, tx, `name LIKE 'report\_version\_%' ESCAPE '\' OR name LIKE 'eval\_version\_%' ESCAPE '\' OR name LIKE 'membership\_%' ESCAPE '\' OR name LIKE 'queue\_blocks\_%' ESCAPE '\' OR name LIKE 'study\_items\_dealt\_%' ESCAPE '\' OR name LIKE 'round\_activity\_%' ESCAPE '\' OR name LIKE 'project\_counts\_sentences\_%' ESCAPE '\' OR name LIKE 'project\_counts\_gold\_%' ESCAPE '\' OR name LIKE 'round\_counts\_%' ESCAPE '\'
		OR name IN (SELECT value FROM json_each(?1))`, string(names))
	if err != nil {
		return nil, err
	}
	return &heldTriggers{sql: dropped, gold: gold}, nil
}

// release makes the held triggers again, bumps the project's counters
// once for everything the import wrote (the membership counters of every
// project's rounds when the import named none), and counts the project's
// queues, its annotators' round counts and its study items' deals again
// from its assignments (every project's, when the import named none).
func (h *heldTriggers) release(ctx context.Context, tx *sql.Tx, projectID int64) error {
	return h.releaseIn(ctx, tx, projectID, countScope{project: projectID})
}

// releaseRound is release after a write that added assignments of round
// roundID of project projectID and nothing else (dealing the round): only
// that round's queues, round counts, study items and membership counter
// can have changed, so only they are counted again, and the project's
// sentence and gold counts, which assignments do not touch, are left.
// Counting every round of the project again took 1.3 s of the 4.9 s that
// dealing 300,000 assignments held the writer.
func (h *heldTriggers) releaseRound(ctx context.Context, tx *sql.Tx, projectID, roundID int64) error {
	return h.releaseIn(ctx, tx, projectID, countScope{project: projectID, round: roundID})
}

func (h *heldTriggers) releaseIn(ctx context.Context, tx *sql.Tx, projectID int64, sc countScope) error {
	if err := h.sql.restore(ctx, tx); err != nil {
		return err
	}
	if err := recountQueues(ctx, tx, sc); err != nil {
		return err
	}
	if err := recountDealt(ctx, tx, sc); err != nil {
		return err
	}
	if sc.round == 0 {
		if err := recountProject(ctx, tx, projectID); err != nil {
			return err
		}
	}
	if err := recountRoundCounts(ctx, tx, sc); err != nil {
		return err
	}
	if err := bumpMembership(ctx, tx, sc); err != nil {
		return err
	}
	if projectID == 0 {
		return nil
	}
	return bumpVersions(ctx, tx, projectID)
}

// countScope is whose counters a write that held the triggers counts
// again: every round of a project (of every project for 0), or one round.
type countScope struct {
	project, round int64
}

// rounds returns a condition on a row's round_id that holds for the
// rounds in scope, with its argument (?1).
func (sc countScope) rounds() (string, int64) {
	if sc.round != 0 {
		return `round_id = ?1`, sc.round
	}
	return `round_id IN (SELECT id FROM rounds WHERE project_id = ?1 OR ?1 = 0)`, sc.project
}

// recountQueues writes the queue_blocks of the rounds in scope from their
// assignments, as the queue_blocks triggers would have kept them.
func recountQueues(ctx context.Context, tx *sql.Tx, sc countScope) error {
	scope, arg := sc.rounds()
	if _, err := tx.ExecContext(ctx, `DELETE FROM queue_blocks WHERE `+scope, arg); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO queue_blocks (user_id, round_id, block, total, done)
		SELECT user_id, round_id, position >> 8, count(*), sum(status = 'submitted') FROM assignments
		WHERE status != 'released' AND `+scope+` GROUP BY user_id, round_id, position >> 8`, arg)
	return err
}

// recountDealt sets study_items.dealt of the studies of the rounds in
// scope from their rounds' assignments, as the study_items triggers would
// have kept it: the live (not released) assignments of the item's summary
// in the study's round.
func recountDealt(ctx context.Context, tx *sql.Tx, sc countScope) error {
	studies, arg := `SELECT s.id FROM studies s JOIN rounds r ON r.id = s.round_id WHERE r.project_id = ?1 OR ?1 = 0`, sc.project
	if sc.round != 0 {
		studies, arg = `SELECT id FROM studies WHERE round_id = ?1`, sc.round
	}
	_, err := tx.ExecContext(ctx, `UPDATE study_items SET dealt = (SELECT count(*) FROM assignments a JOIN studies s ON s.id = study_items.study_id
			WHERE a.round_id = s.round_id AND a.summary_id = study_items.summary_id AND a.status != 'released')
		WHERE study_id IN (`+studies+`)`, arg)
	return err
}

// markLabelledStale does, once, what labelGoldTrigger does for
// each label when an import holds it: it marks stale the gold index rows
// of the sentences given labels (rows of sentence_labels from id first
// on: the import's, as it deletes none) whose gold waits. Run at the end
// of the import, it reads the gold as it is then; gold that changed after
// a label was written was marked stale by the triggers of gold_sentences,
// which stay, so the sentences marked are those the trigger would have
// marked.
func markLabelledStale(ctx context.Context, tx *sql.Tx, first int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO gold_tallies_stale (sentence_id)
		SELECT DISTINCT sl.sentence_id FROM sentence_labels sl
		JOIN gold_sentences g ON g.sentence_id = sl.sentence_id AND g.provenance IN ('unresolved', 'imported')
		WHERE sl.id >= ?
		ON CONFLICT DO NOTHING`, first)
	return err
}

// markImportDealtStale does, once, what dealtGoldTrigger does for each
// assignment an import made (those from id first on): it marks stale the
// gold of their summaries. Only summaries there before the import
// (below firstSummary) need it: the gold of a summary the import made was
// written by the import, and marked stale as it was written.
func markImportDealtStale(ctx context.Context, tx *sql.Tx, first, firstSummary int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO gold_tallies_stale (sentence_id)
		SELECT g.sentence_id FROM summary_sentences ss CROSS JOIN gold_sentences g ON g.sentence_id = ss.id
		WHERE ss.summary_id IN (SELECT summary_id FROM assignments WHERE id >= ?1 AND summary_id < ?2)
		ON CONFLICT DO NOTHING`, first, firstSummary)
	return err
}

// DroppedTriggers is the text of triggers dropped inside a transaction,
// which makes them again (see [DropTriggers]).
type DroppedTriggers []string

// DropTriggers drops, inside tx, the triggers whose sqlite_master rows
// match where (a condition on name and tbl_name, with args), and returns
// their text so that [DroppedTriggers.Restore] makes them again before the
// commit. DDL is transactional in SQLite and a write transaction holds the
// only write lock: no other write happens without the triggers, readers
// keep the schema they had until the commit, and a rollback restores the
// triggers with everything else.
func DropTriggers(ctx context.Context, tx *sql.Tx, where string, args ...any) (DroppedTriggers, error) {
	d, err := dropTriggers(ctx, tx, where, args...)
	return d, domain.Op("DropTriggers", err)
}

func dropTriggers(ctx context.Context, tx *sql.Tx, where string, args ...any) (DroppedTriggers, error) {
	var names []string
	var dropped DroppedTriggers
	err := queryRows(ctx, tx, `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND (`+where+`) ORDER BY name`, func(rows *sql.Rows) error {
		var name, text string
		if err := rows.Scan(&name, &text); err != nil {
			return err
		}
		names = append(names, name)
		dropped = append(dropped, text)
		return nil
	}, args...)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER "`+n+`"`); err != nil {
			return nil, err
		}
	}
	return dropped, nil
}

// Restore makes the dropped triggers again, in tx.
func (d DroppedTriggers) Restore(ctx context.Context, tx *sql.Tx) error {
	return domain.Op("DroppedTriggers.Restore", d.restore(ctx, tx))
}

func (d DroppedTriggers) restore(ctx context.Context, tx *sql.Tx) error {
	for _, text := range d {
		if _, err := tx.ExecContext(ctx, text); err != nil {
			return err
		}
	}
	return nil
}
