package tasks

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSchemaTemplateIsWhatMigratingMakes opens one new database as a copy
// of the schema template and one by running every migration, and expects
// the same schema, version and settings in both, the copy private to its
// owner, and a database that exists left as it is.
func TestSchemaTemplateIsWhatMigratingMakes(t *testing.T) {
	ctx := context.Background()
	UseSchemaTemplateForTests()
	dir := t.TempDir()
	schema := func(path string, opts ...OpenOption) [][4]string {
		t.Helper()
		s, err := Open(ctx, path, opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var rows [][4]string
		var v int
		if err := s.write.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != CurrentSchemaVersion() {
			t.Errorf("%s: schema version %d, want %d", path, v, CurrentSchemaVersion())
		}
		var mode, fk string
		if err := s.write.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := s.write.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, [4]string{"pragma", mode, fk, ""})
		err = queryRows(ctx, s.write, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
			WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name`, func(r *sql.Rows) error {
			var row [4]string
			if err := r.Scan(&row[0], &row[1], &row[2], &row[3]); err != nil {
				return err
			}
			rows = append(rows, row)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	copied := filepath.Join(dir, "copied.db")
	migrated := filepath.Join(dir, "migrated.db")
	a := schema(copied)
	if len(schemaTemplate.image) == 0 {
		t.Fatal("the new database was not made from the template")
	}
	b := schema(migrated, func(c *openConfig) { c.template = false })
	if len(a) < 20 || !reflect.DeepEqual(a, b) {
		t.Fatalf("the template's schema (%d objects) differs from a migrated one's (%d)", len(a), len(b))
	}
	if st, err := os.Stat(copied); err != nil || st.Mode().Perm() != dbFileMode {
		t.Errorf("copied database: %v, mode %v", err, st.Mode().Perm())
	}
	// A database that exists is not overwritten by the template.
	s, err := Open(ctx, copied)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `INSERT INTO users (username, password_hash) VALUES ('kept', x'00')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, copied)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.write.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE username = 'kept'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("reopened database lost its rows: %d, %v", n, err)
	}
}
