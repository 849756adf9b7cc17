package importer_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// An import that makes its project writes without SQLite's foreign-key
// checks (tasks.ImportStream). TestCreateImportKeepsEveryKey imports every
// format so into a database that already holds a project with annotators
// of the same names and the account a gold decision names, and finds no
// row pointing at a row that is not there (PRAGMA foreign_key_check); then
// the writer refuses such a row again.
func TestCreateImportKeepsEveryKey(t *testing.T) {
	ctx := context.Background()
	st, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.CreateUser(ctx, "lea", "Lea", "a long enough password", false); err != nil {
		t.Fatal(err)
	}
	native := `{"scales":[{"name":"support","level":"sentence","min":1,"max":3}]}` + "\n" +
		`{"id":"d1","text":"The council met. It voted.","summaries":[{"id":"s1","model":"m1","sentences":[` +
		`{"text":"The council met.","gold":{"label":"faithful","provenance":"majority","decided_by":"lea","decided_at":"2026-01-03T12:00:00Z"},` +
		`"labels":[{"annotator":"w1","round":"r1","label":"faithful","scores":{"support":3}},{"annotator":"w2","round":"r1","label":"unfaithful","error_types":["extrinsic_information"]}]},` +
		`{"text":"It voted.","labels":[{"annotator":"w1","round":"r1","label":"faithful"},{"annotator":"w2","round":"r1","label":"faithful"}]}],` +
		`"labels":[{"annotator":"w1","round":"r1","relevance":3}]}],"key_facts":[{"text":"The council voted."}]}` + "\n" +
		`{"id":"d2","sentences":["B."],"summaries":[{"id":"s2","sentences":[{"text":"B.","gold":{"label":"","provenance":"unresolved"}}],"scores":{"faithfulness":null,"completeness":0.5,"conciseness":1}}]}` + "\n"
	raw := `{"kind":"export","export_version":1,"what":"raw","exported_at":"2026-01-01T00:00:00Z"}` + "\n" +
		`{"round":"r2","annotator":"w3","summary_id":"s2","sentence_idx":1,"labelled":true,"label":"faithful","relevance":3}` + "\n" +
		`{"round":"r2","annotator":"w1","summary_id":"s2","sentence_idx":1,"labelled":true,"label":"unfaithful","relevance":2}` + "\n"
	open := func(t *testing.T, paths ...string) []importer.File {
		var files []importer.File
		for _, p := range paths {
			f, err := os.Open(filepath.Join("testdata", p))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			files = append(files, importer.File{Name: p, R: f})
		}
		return files
	}
	text := func(name, s string) importer.File { return importer.File{Name: name, R: strings.NewReader(s)} }
	imports := []struct {
		slug, format string
		files        func(t *testing.T) []importer.File
		opts         importer.Options
	}{
		{"old", "", func(*testing.T) []importer.File { return []importer.File{text("old.jsonl", native)} }, importer.Options{}},
		{"native", "", func(*testing.T) []importer.File { return []importer.File{text("n.jsonl", native)} }, importer.Options{}},
		{"raw", "", func(*testing.T) []importer.File {
			return []importer.File{text("raw.jsonl", raw), text("docs.jsonl", native)}
		}, importer.Options{}},
		{"tofueval", "", func(t *testing.T) []importer.File {
			return open(t, "tofueval/meetingbank_factual_eval_test.csv", "tofueval/meetingbank_factual_eval_dev.csv",
				"tofueval/meetingbank_completeness_final.csv", "madisse/MeetingBank_ambiguity_annotated.json")
		}, importer.Options{SkipDocuments: []string{"LongBeachCC_10172017_17-0944"}}},
		{"madisse", "", func(t *testing.T) []importer.File { return open(t, "madisse/sample_data.json") }, importer.Options{}},
		{"summedits", "", func(t *testing.T) []importer.File { return open(t, "summedits/summedits_news.json") }, importer.Options{}},
	}
	for _, im := range imports {
		req := domain.ImportRequest{Create: &domain.Project{Slug: im.slug, Settings: domain.DefaultSettings()}}
		_, stats, _, err := importer.Write(ctx, st, req, im.format, im.files(t), im.opts)
		if err != nil {
			t.Fatalf("import %s: %v", im.slug, err)
		}
		if stats.Documents == 0 {
			t.Fatalf("import %s wrote no documents: %+v", im.slug, stats)
		}
		if bad := danglingKeys(t, st); len(bad) > 0 {
			t.Fatalf("after importing %s, rows point at rows that are not there: %s", im.slug, strings.Join(bad, "; "))
		}
	}

	// The writer checks keys again: a label of an assignment and a
	// sentence that do not exist is refused.
	err = st.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sentence_labels (assignment_id, sentence_id, label) VALUES (999999, 999999, 'faithful')`)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Fatalf("a label pointing nowhere after the imports: %v, want a foreign key error", err)
	}
}

// danglingKeys lists what PRAGMA foreign_key_check finds: rows whose
// parent row is not there.
func danglingKeys(t *testing.T, st *tasks.Store) []string {
	t.Helper()
	rows, err := st.Reader(context.Background()).QueryContext(context.Background(), `PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var table, parent string
		var rowid, fk sql.NullInt64
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s row %d points at a missing %s", table, rowid.Int64, parent))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
