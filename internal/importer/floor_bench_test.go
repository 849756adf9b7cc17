package importer_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// floorTables are the tables an import of benchNative's file writes,
// parents before the tables that refer to them.
var floorTables = []string{"users", "projects", "imported_users", "rounds", "imported_rounds", "documents", "document_units",
	"key_facts", "summaries", "summary_sentences", "assignments", "sentence_labels", "sentence_label_history", "summary_labels",
	"gold_sentences", "gold_history"}

// BenchmarkImportFloor measures what SQLite alone takes to write the rows
// that BenchmarkStreamNative's import writes, as the floor under that
// import's time: the file (ANNOTATE_IMPORT_DOCS documents, 200 by
// default) is imported once, untimed, and each iteration copies the
// import's tables into a new database of the same schema, a table at a
// time with INSERT … SELECT in one transaction, with no trigger and no Go
// code per row. "fk" enforces the foreign keys, as the import does;
// "nofk" does not. The copy keeps every row, index and constraint of the
// import, and does nothing else: the import's reading, checking, gold
// resolution and queue counts come on top. b.SetBytes is the imported
// file's size, so the figure compares with BenchmarkStreamNative's MB/s.
func BenchmarkImportFloor(b *testing.B) {
	docs := 200
	if v, err := strconv.Atoi(os.Getenv("ANNOTATE_IMPORT_DOCS")); err == nil && v > 0 {
		docs = v
	}
	data := benchNative(docs)
	src := floorSource(b, data)
	for _, fk := range []string{"fk", "nofk"} {
		b.Run(fk, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var rows int64
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				dst := filepath.Join(b.TempDir(), fmt.Sprintf("copy%d.db", i))
				db := floorTarget(b, dst, src, fk == "fk")
				b.StartTimer()
				rows = copyTables(b, db)
				b.StopTimer()
				db.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// TestImportFloorCopiesEveryRow runs BenchmarkImportFloor's copy on a
// small file, with and without foreign keys, and checks that every row of
// every table it copies arrives: a schema change that breaks the copy
// (a generated column, a new table the import writes) fails here rather
// than in a benchmark nobody ran.
func TestImportFloorCopiesEveryRow(t *testing.T) {
	src := floorSource(t, benchNative(3))
	ctx := context.Background()
	for _, fk := range []bool{true, false} {
		db := floorTarget(t, filepath.Join(t.TempDir(), fmt.Sprintf("copy-%v.db", fk)), src, fk)
		copied := copyTables(t, db)
		var want int64
		for _, table := range floorTables {
			var n, m int64
			if err := db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM src.`+table+`), (SELECT count(*) FROM main.`+table+`)`).Scan(&n, &m); err != nil {
				t.Fatal(err)
			}
			if n != m {
				t.Errorf("foreign keys %v: %s: %d rows copied of %d", fk, table, m, n)
			}
			want += n
		}
		if copied != want || want == 0 {
			t.Errorf("foreign keys %v: copyTables says %d rows, the tables hold %d", fk, copied, want)
		}
		db.Close()
	}
}

// floorSource imports data into a new database, as BenchmarkStreamNative
// does, and returns its path.
func floorSource(tb testing.TB, data []byte) string {
	ctx := context.Background()
	src := filepath.Join(tb.TempDir(), "source.db")
	st, err := tasks.Open(ctx, src)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	files := []importer.File{{Name: "bench.jsonl", R: bytes.NewReader(data), Size: int64(len(data))}}
	req := domain.ImportRequest{Create: &domain.Project{Slug: "bench", Settings: domain.DefaultSettings()}}
	if _, _, _, err := importer.Write(ctx, st, req, "", files, importer.Options{}); err != nil {
		tb.Fatal(err)
	}
	return src
}

// floorTarget makes a database of the store's schema at dst, without its
// triggers, and opens it on one connection with src attached as "src".
func floorTarget(b testing.TB, dst, src string, foreignKeys bool) *sql.DB {
	ctx := context.Background()
	st, err := tasks.Open(ctx, dst)
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if foreignKeys {
		q.Add("_pragma", "foreign_keys(ON)")
	} else {
		q.Add("_pragma", "foreign_keys(OFF)")
	}
	db, err := sql.Open("sqlite", "file:"+dst+"?"+q.Encode())
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tasks.DropTriggers(ctx, tx, `1`); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `ATTACH ? AS src`, src); err != nil {
		b.Fatal(err)
	}
	return db
}

// copyTables copies floorTables from src in one transaction and returns
// the number of rows copied.
func copyTables(b testing.TB, db *sql.DB) int64 {
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	var total int64
	for _, t := range floorTables {
		// The columns the table stores as given: not a generated one
		// (such as sentence_labels.label_bits), which SELECT * includes
		// and an INSERT cannot name.
		var cols string
		if err := tx.QueryRowContext(ctx, `SELECT group_concat(name, ', ') FROM pragma_table_xinfo(?, 'main') WHERE hidden = 0`, t).Scan(&cols); err != nil {
			b.Fatalf("%s: %v", t, err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO main.`+t+` (`+cols+`) SELECT `+cols+` FROM src.`+t)
		if err != nil {
			b.Fatalf("%s: %v", t, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			b.Fatal(err)
		}
		total += n
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return total
}
