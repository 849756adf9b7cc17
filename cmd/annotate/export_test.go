package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldInput is a native import file with gold of two provenances.
const goldInput = `{"id":"d1","sentences":["The council met.","It approved the budget."],"summaries":[{"id":"s1","model":"m1","sentences":[{"text":"The council met.","gold":{"label":"faithful"}},{"text":"It approved nothing.","gold":{"label":"unfaithful","error_types":["contradiction"],"explanation":"It approved the budget.","provenance":"adjudicated","decided_at":"2026-01-03T12:00:00Z","note":"checked"}}]},{"id":"s2","model":"m2","text":"The council met."}]}
`

func TestExportCommandRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(goldInput), 0o644); err != nil {
		t.Fatal(err)
	}
	db1, db2 := filepath.Join(dir, "one.db"), filepath.Join(dir, "two.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db1, "--project", "p", "--create", in); err != nil {
		t.Fatal(err)
	}
	gold := filepath.Join(dir, "gold.jsonl")
	if _, _, err := runCmd(t, "", nil, "export", "--db", db1, "--project", "p", "--what", "gold", "--out", gold); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", nil, "import", "--db", db2, "--project", "p", "--create", "--format", "native", gold); err != nil {
		t.Fatal(err)
	}
	first, _, err := runCmd(t, "", nil, "export", "--db", db1, "--project", "p", "--what", "gold", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	second, _, err := runCmd(t, "", nil, "export", "--db", db2, "--project", "p", "--what", "gold", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if first != second || !strings.Contains(first, "adjudicated") || !strings.Contains(first, ",imported,") {
		t.Fatalf("gold after the round trip differs:\n%s\n---\n%s", first, second)
	}
}

func TestExportCommandCSVSidecar(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(goldInput), 0o644)
	db := filepath.Join(dir, "a.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "p", "--create", in); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "scores.csv")
	if _, _, err := runCmd(t, "", nil, "export", "--db", db, "--project", "p", "--what", "scores", "--out", out); err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(csv), "level,document_id,") {
		t.Fatalf("scores.csv: %v\n%s", err, csv)
	}
	var meta map[string]any
	raw, err := os.ReadFile(out + ".meta.json")
	if err != nil || json.Unmarshal(raw, &meta) != nil || meta["project"] != "p" || meta["what"] != "scores" || meta["schema_version"] == nil {
		t.Fatalf("sidecar: %v\n%s", err, raw)
	}
}

func TestExportCommandErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(goldInput), 0o644)
	db := filepath.Join(dir, "a.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "p", "--create", in); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "never.jsonl")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--project", "nope", "--what", "gold"}, `project "nope"`},
		{[]string{"--project", "p", "--what", "gold", "--round", "r9"}, `round: project p has no round named "r9"`},
		{[]string{"--project", "p", "--what", "tofueval", "--format", "jsonl"}, "format:"},
		{[]string{"--project", "p", "--what", "gold", "--provenance", "voted"}, `provenance: "voted"`},
	}
	for _, c := range cases {
		args := append([]string{"export", "--db", db, "--out", out}, c.args...)
		if _, _, err := runCmd(t, "", nil, args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed export left %s", out)
	}
	if _, _, err := runCmd(t, "", nil, "export", "--db", db, "--what", "gold"); err == nil {
		t.Error("export without --project accepted")
	}
	help, _, err := runCmd(t, "", nil, "export", "-h")
	if err != nil || !strings.Contains(help, "-provenance") || !strings.Contains(help, "tofueval") {
		t.Errorf("export -h: %v\n%s", err, help)
	}
}

// TestExportFilesArePrivate: an export file and its CSV sidecar are
// written 0600, like the database, and a temporary file left beside the
// target by an export that was killed outright is removed by the next.
func TestExportFilesArePrivate(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(goldInput), 0o644)
	db := filepath.Join(dir, "a.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "p", "--create", in); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "scores.csv")
	// A killed export's leftover: process id 2^22+1 is above Linux's
	// largest, so it cannot be running; one of a live process is kept.
	stale := filepath.Join(dir, ".scores.csv.4194305-123")
	live := filepath.Join(dir, fmt.Sprintf(".scores.csv.%d-456", os.Getpid()))
	for _, f := range []string{stale, live} {
		if err := os.WriteFile(f, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := runCmd(t, "", nil, "export", "--db", db, "--project", "p", "--what", "scores", "--out", out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{out, out + ".meta.json"} {
		st, err := os.Stat(f)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", f, st.Mode().Perm(), err)
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the killed export's temporary file is still there: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a running export's temporary file was removed: %v", err)
	}
}
