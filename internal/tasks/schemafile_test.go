package tasks_test

import (
	"context"
	"database/sql"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/tasks"
)

var updateSchema = flag.Bool("update-schema", false, "rewrite schema.sql from the migrations")

// schemaFile is the readable schema at the module's root.
const schemaFile = "../../schema.sql"

// TestSchemaFileIsCurrent: schema.sql is what a fresh database holds after
// the base schema and every migration, object by object in the order they
// were made. Run `go generate ./internal/tasks` (this test with
// -update-schema) after adding a migration.
func TestSchemaFileIsCurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fresh.db")
	s, err := tasks.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	got := dumpSchema(t, path)
	if *updateSchema {
		if err := os.WriteFile(schemaFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Fatalf("schema.sql is not what the migrations make; run go generate ./internal/tasks")
	}
}

// dumpSchema writes a database's tables, indexes and triggers as SQL, in
// the order they were created, under a header saying where they come from.
func dumpSchema(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	b.WriteString("-- The database schema of annotate, version " + strconv.Itoa(version) + ", as a fresh database holds it.\n")
	b.WriteString("-- Written from the migrations (internal/tasks/schema_v1.sql, then\n")
	b.WriteString("-- internal/tasks/migrate.go) by `go generate ./internal/tasks`; do not edit:\n")
	b.WriteString("-- a change goes in a new migration.\n")
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n" + strings.TrimSpace(q) + ";\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
