package assiststore

import (
	"context"
	"database/sql"

	"annotate/internal/tasks"
)

// heldTriggers are the triggers that bump a project's report and eval
// versions and count a run's results for every result written, which an import drops
// inside its transaction, with the text that makes them again.
type heldTriggers struct {
	sql tasks.DroppedTriggers
}

// holdOutputTriggers drops the report_versions, eval_versions and
// assist_run_counts triggers of assist_outputs inside an import's
// transaction: an import writes hundreds of thousands of results of one
// project, and each would bump the same counters. release makes them
// again, bumps the versions once and counts the import's runs (see [tasks.DropTriggers]).
func holdOutputTriggers(ctx context.Context, tx *sql.Tx) (*heldTriggers, error) {
	d, err := tasks.DropTriggers(ctx, tx, `tbl_name = 'assist_outputs' AND (name LIKE 'report\_version\_%' ESCAPE '\' OR name LIKE 'eval\_version\_%' ESCAPE '\' OR name LIKE 'assist\_run\_counts\_%' ESCAPE '\')`)
	if err != nil {
		return nil, err
	}
	return &heldTriggers{sql: d}, nil
}

// release makes the held triggers again, bumps the project's report and
// eval versions once for everything the import wrote and counts the
// results of the runs it wrote.
func (h *heldTriggers) release(ctx context.Context, tx *sql.Tx, projectID int64, runs []int64) error {
	if err := h.sql.Restore(ctx, tx); err != nil {
		return err
	}
	if err := tasks.BumpVersions(ctx, tx, projectID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, tasks.AssistRunCountsQuery, tasks.JSONIDs(runs))
	return err
}
