package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCommandsRefuseAMissingDatabase runs each command that works on what
// a database already holds against a path where none exists: it must fail
// naming the path, and leave no file behind.
func TestCommandsRefuseAMissingDatabase(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	if err := os.WriteFile(results, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"agreement", "--project", "p"},
		{"assign", "--project", "p", "--round", "r", "--annotators", "a,b", "--per-item", "2"},
		{"assist", "eval", "--project", "p"},
		{"assist", "export", "--project", "p"},
		{"assist", "import", "--project", "p", "--db", "", results},
		{"assist", "run", "--project", "p", "--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "m"},
		{"backup", "--out", filepath.Join(dir, "copy.db")},
		{"export", "--project", "p", "--what", "raw"},
		{"keys", "rotate"},
		{"study", "report", "--project", "p", "--name", "s"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			db := filepath.Join(dir, "missing.db")
			if i := slices.Index(args, "--db"); i >= 0 {
				args[i+1] = db // before a positional argument
			} else {
				args = append(args, "--db", db)
			}
			_, stderr, err := runCmd(t, "", nil, args...)
			if err == nil || !strings.Contains(err.Error(), "database "+db+" does not exist") {
				t.Fatalf("err = %v, want the missing database named\n%s", err, stderr)
			}
			if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("%s left behind (stat: %v)", db, err)
			}
		})
	}
}

// TestDemoCreatesItsDatabase keeps the commands that start a database
// able to: demo makes one where none is.
func TestDemoCreatesItsDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "new.db")
	if _, stderr, err := runCmd(t, "", nil, "demo", "--db", db); err != nil {
		t.Fatalf("demo: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatal(err)
	}
}
