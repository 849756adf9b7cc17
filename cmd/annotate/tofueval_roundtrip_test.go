package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTofuEvalAnnotationIDRoundTrip imports TofuEval rows and exports them
// again: annotation_id is the one of the release, not a row number of this
// database, also after going through a gold export into a second database.
func TestTofuEvalAnnotationIDRoundTrip(t *testing.T) {
	src := "../../internal/importer/testdata/tofueval/meetingbank_factual_eval_test.csv"
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, r := range rows[1:] {
		want[r[0]] = r[1]
	}
	check := func(db string) {
		t.Helper()
		out, errOut, err := runCmd(t, "", nil, "export", "--db", db, "--project", "tf", "--what", "tofueval")
		if err != nil {
			t.Fatalf("export: %v\n%s", err, errOut)
		}
		got, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(got) < 2 {
			t.Fatalf("export: %v, %d rows", err, len(got))
		}
		for _, r := range got[1:] {
			if want[r[0]] != r[1] {
				t.Fatalf("annotation_id of %s is %q, want %q", r[0], r[1], want[r[0]])
			}
		}
	}
	db := filepath.Join(t.TempDir(), "a.db")
	if _, errOut, err := runCmd(t, "", nil, "import", "--db", db, "--project", "tf", "--create", src, "../../internal/importer/testdata/madisse/MeetingBank_ambiguity_annotated.json"); err != nil {
		t.Fatalf("import: %v\n%s", err, errOut)
	}
	check(db)
	gold := filepath.Join(t.TempDir(), "gold.jsonl")
	if _, _, err := runCmd(t, "", nil, "export", "--db", db, "--project", "tf", "--what", "gold", "--out", gold); err != nil {
		t.Fatal(err)
	}
	db2 := filepath.Join(t.TempDir(), "b.db")
	if _, errOut, err := runCmd(t, "", nil, "import", "--db", db2, "--project", "tf", "--create", gold); err != nil {
		t.Fatalf("import gold: %v\n%s", err, errOut)
	}
	check(db2)
}
