package tasks

import (
	"context"
	"database/sql"
	"errors"
)

// errEnough, returned by a scan function of queryRows, ends the reading
// early without an error: SQLite computes a row only when it is stepped
// to, so the rows not read cost nothing.
var errEnough = errors.New("enough rows")

// queryRows runs query with args and calls scan on each row, until scan
// returns errEnough or an error.
func queryRows(ctx context.Context, q querier, query string, scan func(*sql.Rows) error, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			if err == errEnough {
				return nil
			}
			return err
		}
	}
	return rows.Err()
}
