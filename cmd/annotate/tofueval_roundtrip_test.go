package main

import (
	"encoding/csv"
	"fmt"
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

// TestTofuEvalSentIdxSurvives imports a released TofuEval summary whose
// sent_idx runs 1, 2, 4 (with a transcript given as a native document, as
// the release holds none), exports it in TofuEval's format, directly and
// after a gold export into a second database: the rows come back byte for
// byte as released, sent_idx included.
func TestTofuEvalSentIdxSurvives(t *testing.T) {
	src := "../../internal/importer/testdata/tofueval/sent_idx_gaps.csv"
	released, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	transcript := filepath.Join(dir, "transcript.jsonl")
	doc := `{"id":"DenverCityCouncil_08292016_16-0553","kind":"dialogue","turns":[{"speaker":"Speaker 0","text":"The block vote results are adopted."},{"speaker":"Speaker 1","text":"Council Bill 42 goes to a public hearing."}]}` + "\n"
	if err := os.WriteFile(transcript, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	export := func(db string) string {
		t.Helper()
		out, errOut, err := runCmd(t, "", nil, "export", "--db", db, "--project", "tf", "--what", "tofueval")
		if err != nil {
			t.Fatalf("export: %v\n%s", err, errOut)
		}
		return out
	}
	norm := func(s string) [][]string {
		rows, err := csv.NewReader(strings.NewReader(s)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	want := norm(string(released))
	db := filepath.Join(dir, "a.db")
	if _, errOut, err := runCmd(t, "", nil, "import", "--db", db, "--project", "tf", "--create", "--format", "tofueval", src, transcript); err != nil {
		t.Fatalf("import: %v\n%s", err, errOut)
	}
	for round, got := range []string{export(db)} {
		if g := norm(got); fmt.Sprint(g) != fmt.Sprint(want) {
			t.Fatalf("export %d:\n%v\nwant\n%v", round, g, want)
		}
	}
	gold := filepath.Join(dir, "gold.jsonl")
	if _, _, err := runCmd(t, "", nil, "export", "--db", db, "--project", "tf", "--what", "gold", "--out", gold); err != nil {
		t.Fatal(err)
	}
	db2 := filepath.Join(dir, "b.db")
	if _, errOut, err := runCmd(t, "", nil, "import", "--db", db2, "--project", "tf", "--create", gold); err != nil {
		t.Fatalf("import gold: %v\n%s", err, errOut)
	}
	if g := norm(export(db2)); fmt.Sprint(g) != fmt.Sprint(want) {
		t.Fatalf("after a gold export into a second database:\n%v\nwant\n%v", g, want)
	}
}
