package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Flags work before or after the username: "annotate user member --db X
// ann1 --project demo --role annotator" used to fail with "--project and
// --role are required".
func TestUserFlagsAnywhere(t *testing.T) {
	db := filepath.Join(t.TempDir(), "f.db")
	if _, _, err := runCmd(t, "", nil, "demo", "--db", db); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"user", "member", "--db", db, "ann1", "--project", "demo", "--role", "adjudicator"},
		{"user", "member", "ann1", "--db", db, "--project", "demo", "--role", "annotator"},
		{"user", "member", "--db", db, "--project", "demo", "--role", "lead", "ann2"},
	} {
		out, errOut, err := runCmd(t, "", nil, args...)
		if err != nil || !strings.Contains(out, "is now") {
			t.Errorf("%v: %v\n%s%s", args[2:], err, out, errOut)
		}
	}
	if _, _, err := runCmd(t, "", nil, "user", "disable", "ann1", "ann2", "--db", db); err == nil {
		t.Error("two usernames accepted")
	}
	out, _, err := runCmd(t, "a long enough password\n", nil, "user", "add", "--db", db, "maria", "--display", "Maria R", "--admin")
	if err != nil || !strings.Contains(out, "added user maria") {
		t.Fatalf("add with flags after the name: %v %s", err, out)
	}
	out, _, _ = runCmd(t, "", nil, "user", "list", "--db", db)
	if !strings.Contains(out, "Maria R") {
		t.Fatalf("display name lost:\n%s", out)
	}
}
