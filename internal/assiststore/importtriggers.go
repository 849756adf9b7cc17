package assiststore

import (
	"context"
	"database/sql"
)

// heldTriggers are the triggers that bump a project's report version for
// every result written, which an import drops inside its transaction,
// with the text that makes them again.
type heldTriggers struct {
	sql []string
}

// holdOutputTriggers drops the report_versions triggers of assist_outputs
// inside an import's transaction: an import writes hundreds of thousands
// of results of one project, and each would bump the same counter.
// release makes them again and bumps the counter once. DDL is
// transactional in SQLite and the transaction holds the only write lock,
// so no other write happens without them, readers keep the schema they
// had until the commit, and a rollback restores them.
func holdOutputTriggers(ctx context.Context, tx *sql.Tx) (*heldTriggers, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'assist_outputs'
		AND name LIKE 'report\_version\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var names []string
	h := &heldTriggers{}
	for rows.Next() {
		var name, text string
		if err := rows.Scan(&name, &text); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, name)
		h.sql = append(h.sql, text)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER "`+n+`"`); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// release makes the held triggers again and bumps the project's report
// version once for everything the import wrote.
func (h *heldTriggers) release(ctx context.Context, tx *sql.Tx, projectID int64) error {
	for _, text := range h.sql {
		if _, err := tx.ExecContext(ctx, text); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO report_versions (project_id, version) VALUES (?, 1)
		ON CONFLICT (project_id) DO UPDATE SET version = version + 1`, projectID)
	return err
}
