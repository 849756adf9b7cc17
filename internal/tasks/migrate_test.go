package tasks_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"annotate/internal/tasks"
)

// openVersionOne makes a database as the first release left it: the
// version 1 schema (schema_v1.sql) with one user.
func openVersionOne(t *testing.T) string {
	t.Helper()
	ddl, err := os.ReadFile("schema_v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{string(ddl), `PRAGMA user_version = 1`,
		`INSERT INTO users (username, password_hash) VALUES ('ann', x'00')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%.40s: %v", q, err)
		}
	}
	return path
}

// TestMigrateFromVersionOne opens a version 1 database and finds it
// brought to the current version with its rows kept.
func TestMigrateFromVersionOne(t *testing.T) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, openVersionOne(t))
	if err != nil {
		t.Fatalf("open a version 1 database: %v", err)
	}
	defer s.Close()
	if v, _ := s.SchemaVersion(ctx); v != tasks.CurrentSchemaVersion() || v < 3 {
		t.Fatalf("schema version %d after opening, want %d", v, tasks.CurrentSchemaVersion())
	}
	if _, err := s.UserByName(ctx, "ann"); err != nil {
		t.Fatalf("user lost in the migration: %v", err)
	}
}

// TestMigrationNotice: opening a database an older build made calls the
// migration notice once, with its version and this build's, before the
// migrations; a new database and a current one do not call it.
func TestMigrationNotice(t *testing.T) {
	ctx := context.Background()
	var got [][2]int
	notice := tasks.WithMigrationNotice(func(from, to int) { got = append(got, [2]int{from, to}) })
	old := openVersionOne(t)
	s, err := tasks.Open(ctx, old, notice)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if want := [][2]int{{1, tasks.CurrentSchemaVersion()}}; !slices.Equal(got, want) {
		t.Fatalf("notices opening a version 1 database: %v, want %v", got, want)
	}
	got = nil
	for _, path := range []string{old, filepath.Join(t.TempDir(), "new.db")} {
		s, err := tasks.Open(ctx, path, notice)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	if len(got) != 0 {
		t.Fatalf("notices opening a current and a new database: %v", got)
	}
}

// TestMigratedSchemaIsFresh compares a database migrated from version 1
// with a fresh one: the same tables with the same columns, the same
// indexes on the same columns, the same triggers. Both are made by the
// migrations; a step that depends on data a fresh database lacks, or on
// what an old one holds, fails here.
func TestMigratedSchemaIsFresh(t *testing.T) {
	ctx := context.Background()
	old := openVersionOne(t)
	s, err := tasks.Open(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	if s, err = tasks.Open(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	s.Close()
	got, want := schemaShape(t, old), schemaShape(t, fresh)
	for _, line := range want {
		if !slices.Contains(got, line) {
			t.Errorf("migrated database lacks %s", line)
		}
	}
	for _, line := range got {
		if !slices.Contains(want, line) {
			t.Errorf("migrated database has %s, which a fresh one does not", line)
		}
	}
}

// schemaShape describes a database's tables, columns, indexes and
// triggers, one line each, independent of how the DDL was laid out.
func schemaShape(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []string
	rows, err := db.Query(`SELECT m.type, m.tbl_name, m.name, coalesce(m.sql, '') FROM sqlite_master m
		WHERE m.type IN ('table', 'index', 'trigger') AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name`)
	if err != nil {
		t.Fatal(err)
	}
	type obj struct{ typ, table, name, sql string }
	var objs []obj
	for rows.Next() {
		var o obj
		rows.Scan(&o.typ, &o.table, &o.name, &o.sql)
		objs = append(objs, o)
	}
	rows.Close()
	for _, o := range objs {
		switch o.typ {
		case "trigger":
			// A trigger's text, spaces collapsed and IF NOT EXISTS left
			// out: both databases must hold the same one.
			text := strings.Join(strings.Fields(strings.Replace(o.sql, "IF NOT EXISTS ", "", 1)), " ")
			out = append(out, fmt.Sprintf("trigger %s on %s: %s", o.name, o.table, text))
		case "table":
			r, err := db.Query(`SELECT name, type, "notnull", coalesce(dflt_value, ''), pk FROM pragma_table_info(?)`, o.name)
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				var name, typ, dflt string
				var notnull, pk int
				r.Scan(&name, &typ, &notnull, &dflt, &pk)
				out = append(out, fmt.Sprintf("column %s.%s %s notnull=%d default=%s pk=%d", o.name, name, typ, notnull, dflt, pk))
			}
			r.Close()
		case "index":
			var cols []string
			r, err := db.Query(`SELECT coalesce(name, '') FROM pragma_index_info(?) ORDER BY seqno`, o.name)
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				var c string
				r.Scan(&c)
				cols = append(cols, c)
			}
			r.Close()
			var partial int
			db.QueryRow(`SELECT partial FROM pragma_index_list(?) WHERE name = ?`, o.table, o.name).Scan(&partial)
			out = append(out, fmt.Sprintf("index %s on %s(%s) partial=%d", o.name, o.table, strings.Join(cols, ", "), partial))
		}
	}
	return out
}
