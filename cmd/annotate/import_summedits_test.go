package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// TestSummEditsChangedDocumentReimports: SummEdits names no documents, so
// a document is named by its text. A corrected document text re-imported
// is shown as a text change of the same document (not refused as
// "summary ... belongs to another document"); with --update --relabel it
// replaces the text in place: no new document, the summaries stay where
// they were.
func TestSummEditsChangedDocumentReimports(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	src := filepath.Join("..", "..", "internal", "importer", "testdata", "summedits", "summedits_samsum.json")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", src); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	old := recs[0]["doc"].(string)
	fixed := strings.Replace(old, "some in fridge", "some in the fridge", 1)
	if fixed == old {
		t.Fatal("the test's words are not in the document")
	}
	for _, r := range recs {
		if r["doc"] == old {
			r["doc"] = fixed
		}
	}
	edited, _ := json.Marshal(recs)
	file := filepath.Join(dir, "summedits_samsum.json")
	if err := os.WriteFile(file, edited, 0o600); err != nil {
		t.Fatal(err)
	}

	_, _, err = runCmd(t, "", nil, "import", "--db", db, "--project", "se", file)
	if err == nil {
		t.Fatal("a changed document text imported without --update")
	}
	if strings.Contains(err.Error(), "belongs to another document") || !strings.Contains(err.Error(), "the fridge") {
		t.Fatalf("the refusal does not show the text change:\n%v", err)
	}
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--update", "--relabel", file); err != nil {
		t.Fatalf("--update --relabel: %v", err)
	}

	st, err := tasks.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	p, err := st.ProjectBySlug(ctx, "se")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := st.DocumentRows(ctx, p.ID, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("%d documents after the update, want the same 2", len(docs))
	}
	found := false
	for _, d := range docs {
		doc, err := st.Document(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, u := range doc.Units {
			text.WriteString(u.Text + " ")
		}
		if strings.Contains(text.String(), "some in the fridge") {
			found = true
		}
		if strings.Contains(text.String(), "some in fridge") {
			t.Errorf("document %s keeps the old text", d.ExternalID)
		}
	}
	if !found {
		t.Error("no document holds the corrected text")
	}
}

// TestRefusedImportLeavesNoProject: a SummEdits file the store refuses
// (a document with a NUL character) imported with --create leaves no
// project behind: the project is made in the import's transaction for
// every format (it was made before the import for all but native files).
func TestRefusedImportLeavesNoProject(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	file := filepath.Join(dir, "summedits_news.json")
	bad := `[{"id":"a_0","doc":"A document\u0000 with a NUL.","summary":"S.","label":1,"original_summary":"S.","edit_types":[]}]`
	if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "fresh", "--create", file)
	if err == nil {
		t.Fatal("a document with a NUL imported")
	}
	st, err := tasks.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.ProjectBySlug(context.Background(), "fresh"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("the refused import left project fresh behind (err %v)", err)
	}
	good := strings.Replace(bad, `\u0000`, "", 1)
	if err := os.WriteFile(file, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "fresh", "--create", file)
	if err != nil || !strings.Contains(out, "created project fresh") {
		t.Fatalf("%v\n%s", err, out)
	}
}
