// Package sqlplan reads SQLite's query plans for tests that check which
// indexes a query uses. It imports nothing of the project, so the tests
// of any package, the store's own included, can use it.
package sqlplan

import (
	"context"
	"database/sql"
	"testing"
)

// Querier is what a plan is read through: a *sql.DB, *sql.Tx or
// *sql.Conn.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Of returns the detail of each step of query's plan, in order, as
// EXPLAIN QUERY PLAN gives them with args bound (none for a statement
// without steps, such as an INSERT of values); it stops the test when
// the plan cannot be read.
func Of(t testing.TB, q Querier, query string, args ...any) []string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("explain: %v", err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}
