package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReimportShowsWhereLongValuesDiffer: a summary sentence of SummEdits
// (testdata, 150 characters) changed near its end is re-imported. The
// refusal's line shows the changed words (a cut at the first 80 characters
// hid them), and --diff writes both values whole as a unified diff.
func TestReimportShowsWhereLongValuesDiffer(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", threeRaters); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(threeRaters)
	if err != nil {
		t.Fatal(err)
	}
	const sentence = "Ann asks Mike to buy butter and Mike confirms it. Later, Mike asks Ann if there is any milk, and after checking, Ann confirms that there is some in the fridge."
	changed := strings.Replace(sentence, "in the fridge", "in the freezer", 1)
	edited := strings.Replace(string(raw), `"text": "`+sentence+`"`, `"text": "`+changed+`"`, 1)
	if edited == string(raw) {
		t.Fatal("the test's sentence is not in the file")
	}
	file := filepath.Join(dir, "edited.jsonl")
	if err := os.WriteFile(file, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	diff := filepath.Join(dir, "changes.diff")
	_, stderr, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--diff", diff, file)
	if err == nil {
		t.Fatal("a changed sentence imported without --update")
	}
	if !strings.Contains(err.Error(), `fridge."`) || !strings.Contains(err.Error(), `freezer."`) {
		t.Fatalf("the refusal hides the change:\n%v", err)
	}
	if !strings.Contains(stderr, "written whole to "+diff) {
		t.Fatalf("stderr: %s", stderr)
	}
	got, err := os.ReadFile(diff)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-" + sentence + "\n", "+" + changed + "\n", "in the project)", "in the import)"} {
		if !strings.Contains(string(got), want) {
			t.Fatalf("the diff lacks %q:\n%s", want, got)
		}
	}
}
