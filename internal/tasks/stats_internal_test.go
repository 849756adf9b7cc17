package tasks

import (
	"context"
	"database/sql"
	"testing"
)

// statsConn returns a connection of s's writer whose planner sees table
// with the statistics given (by index: its sqlite_stat1 stat), as on a
// database of the goal shape. It is closed with the test.
func statsConn(t *testing.T, s *Store, table string, stats map[string]string) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := s.write.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.ExecContext(ctx, `DELETE FROM sqlite_stat1 WHERE tbl = ?`, table); err != nil {
		t.Fatal(err)
	}
	for idx, stat := range stats {
		if _, err := conn.ExecContext(ctx, `INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)`, table, idx, stat); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.ExecContext(ctx, `ANALYZE sqlite_schema`); err != nil {
		t.Fatal(err)
	}
	return conn
}
