package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// rebuildTable makes table anew as create defines it (a CREATE TABLE of
// the same name) with the rows it holds, column by column, and its
// indexes and triggers as they were: the way SQLite changes what ALTER
// TABLE cannot, such as adding a stored generated column. No other
// table's foreign key may refer to it.
func rebuildTable(ctx context.Context, tx *sql.Tx, table, create string) error {
	var refs int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema m, pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table' AND m.name != ?1 AND f."table" = ?1`, table).Scan(&refs); err != nil {
		return err
	}
	if refs > 0 {
		return fmt.Errorf("rebuild %s: other tables refer to it", table)
	}
	var cols, kept []string
	if err := queryRows(ctx, tx, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, func(rows *sql.Rows) error {
		var c string
		err := rows.Scan(&c)
		cols = append(cols, `"`+c+`"`)
		return err
	}, table); err != nil {
		return err
	}
	// The indexes and triggers go with the old table and are made again
	// from their own text on the new one.
	if err := queryRows(ctx, tx, `SELECT sql FROM sqlite_schema
		WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid`, func(rows *sql.Rows) error {
		var q string
		err := rows.Scan(&q)
		kept = append(kept, q)
		return err
	}, table); err != nil {
		return err
	}
	old := table + "_rebuilt"
	list := strings.Join(cols, ", ")
	for _, q := range []string{
		fmt.Sprintf(`ALTER TABLE "%s" RENAME TO "%s"`, table, old),
		create,
		fmt.Sprintf(`INSERT INTO "%s" (%s) SELECT %s FROM "%s" ORDER BY rowid`, table, list, list, old),
		fmt.Sprintf(`DROP TABLE "%s"`, old),
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rebuild %s: %w", table, err)
		}
	}
	for _, q := range kept {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rebuild %s: %w", table, err)
		}
	}
	return nil
}
