package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudyCreateAndShow: `annotate study create` reads the definition the
// documentation gives, makes the round over the project's summaries and
// prints the study; `show` prints the Prolific and MTurk links on the
// public address and no participant's platform id; a bad definition is
// refused naming its field.
func TestStudyCreateAndShow(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", threeRaters); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(dir, "study.json")
	os.WriteFile(def, []byte(`{"round":"crowd","conditions":["none","verdict","debate"],"randomise":"participant","k":3,"items_per_participant":10,"attention_rate":0.1,"screening":{"items":4,"pass":0.75},"exclude":"any_failed_check"}`), 0o600)
	out, _, err := runCmd(t, "", nil, "study", "create", "--db", db, "--project", "se", "--name", "pilot", "--from", def)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"created study pilot", "study pilot (open): round crowd, 21 items, k 3, 10 items per participant",
		"attention checks: 27 summaries with gold, mixed in at 10%, exclusion rule \"any_failed_check\"", "conditions [none verdict debate], randomised by participant",
		"screening test: 4 summaries with gold, passed at 75% right"} {
		if !strings.Contains(out, want) {
			t.Errorf("create printed no %q:\n%s", want, out)
		}
	}
	out, _, err = runCmd(t, "", map[string]string{"ANNOTATE_PUBLIC_URL": "https://annotate.example.org/"}, "study", "show", "--db", db, "--project", "se", "--name", "pilot")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Prolific study URL: https://annotate.example.org/s/") || !strings.Contains(out, "?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}") ||
		!strings.Contains(out, "participants: 0 in consent") {
		t.Errorf("show:\n%s", out)
	}
	os.WriteFile(def, []byte(`{"round":"crowd","conditions":["none","hints"],"k":0}`), 0o600)
	if _, _, err := runCmd(t, "", nil, "study", "create", "--db", db, "--project", "se", "--name", "bad", "--from", def); err == nil || !strings.Contains(err.Error(), `conditions[1]: "hints"`) {
		t.Fatalf("a bad definition: %v", err)
	}
}

// TestStudyLinkCanBeRevoked: new-link replaces the entry link (the old
// token opens nothing), close shuts entry, open lets people in again.
func TestStudyLinkCanBeRevoked(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", threeRaters); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(dir, "study.json")
	os.WriteFile(def, []byte(`{"round":"crowd","attention_rate":0}`), 0o600)
	if _, _, err := runCmd(t, "", nil, "study", "create", "--db", db, "--project", "se", "--name", "pilot", "--from", def); err != nil {
		t.Fatal(err)
	}
	link := func(out string) string {
		_, rest, _ := strings.Cut(out, "MTurk external question URL: ")
		l, _, _ := strings.Cut(rest, "\n")
		return l
	}
	env := map[string]string{"ANNOTATE_PUBLIC_URL": "https://annotate.example.org"}
	out, _, _ := runCmd(t, "", env, "study", "show", "--db", db, "--project", "se", "--name", "pilot")
	before := link(out)
	out, _, err := runCmd(t, "", env, "study", "new-link", "--db", db, "--project", "se", "--name", "pilot")
	if err != nil || link(out) == before || link(out) == "" || !strings.Contains(out, "(open)") {
		t.Fatalf("new-link: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", env, "study", "close", "--db", db, "--project", "se", "--name", "pilot")
	if err != nil || !strings.Contains(out, "(closed)") {
		t.Fatalf("close: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", env, "study", "open", "--db", db, "--project", "se", "--name", "pilot")
	if err != nil || !strings.Contains(out, "(open)") {
		t.Fatalf("open: %v\n%s", err, out)
	}
}

// TestStudyReportCommand: the report of a study nobody has entered says
// so, in JSON, and CSV writes the header alone.
func TestStudyReportCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", threeRaters); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(dir, "study.json")
	os.WriteFile(def, []byte(`{"round":"crowd","conditions":["none","debate"],"attention_rate":0}`), 0o600)
	if _, _, err := runCmd(t, "", nil, "study", "create", "--db", db, "--project", "se", "--name", "pilot", "--from", def); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", nil, "study", "report", "--db", db, "--project", "se", "--name", "pilot")
	if err != nil || !strings.Contains(out, `"entered": 0`) || !strings.Contains(out, `"analysis": null`) || !strings.Contains(out, "need gold") {
		t.Fatalf("report: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", nil, "study", "report", "--db", db, "--project", "se", "--name", "pilot", "--format", "csv")
	if err != nil || strings.TrimSpace(out) != "condition,figure,value,ci_low,ci_high,vs_none,vs_none_low,vs_none_high,p" {
		t.Fatalf("csv: %v\n%s", err, out)
	}
}

// TestStudyExcludeCommand: exclude needs a reason and a participant the
// study has.
func TestStudyExcludeCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", threeRaters); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(dir, "study.json")
	os.WriteFile(def, []byte(`{"round":"crowd","attention_rate":0}`), 0o600)
	if _, _, err := runCmd(t, "", nil, "study", "create", "--db", db, "--project", "se", "--name", "pilot", "--from", def); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", nil, "study", "exclude", "--db", db, "--project", "se", "--name", "pilot", "--participant", "1", "--reason", "x"); err == nil ||
		!strings.Contains(err.Error(), "no participant 1") {
		t.Fatalf("a participant the study lacks: %v", err)
	}
	if _, _, err := runCmd(t, "", nil, "study", "exclude", "--db", db, "--project", "se", "--name", "pilot", "--participant", "1"); err == nil ||
		!strings.Contains(err.Error(), "say why") {
		t.Fatalf("no reason: %v", err)
	}
	out, _, err := runCmd(t, "", nil, "study", "answers", "--db", db, "--project", "se", "--name", "pilot")
	if err != nil || strings.TrimSpace(out) != "participant,question,answer" {
		t.Fatalf("answers of a study nobody entered: %v %q", err, out)
	}
}

// TestStudyPlanCommand: study plan prints, per number of participants,
// each condition's power against none; the larger study detects debate's
// planted gain more often, and a bad plan names its field.
func TestStudyPlanCommand(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.json")
	// A plan for planning leaves the number of participants out.
	os.WriteFile(plan, []byte(`{"accuracy":{"none":0.7,"debate":0.9},"seed":4}`), 0o600)
	out, _, err := runCmd(t, "", nil, "study", "plan", "--plan", plan, "--participants", "6,60", "--studies", "40")
	if err != nil {
		t.Fatal(err)
	}
	var small, large float64
	for _, line := range strings.Split(out, "\n") {
		var n int
		var p float64
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "%d participants:  debate %f", &n, &p); err == nil {
			if n == 6 {
				small = p
			} else if n == 60 {
				large = p
			}
		}
	}
	if !(large > small && large >= 0.8) {
		t.Fatalf("debate power %.2f with 6, %.2f with 60:\n%s", small, large, out)
	}
	os.WriteFile(plan, []byte(`{"participants":1,"accuracy":{"none":1.5}}`), 0o600)
	if _, _, err := runCmd(t, "", nil, "study", "plan", "--plan", plan); err == nil || !strings.Contains(err.Error(), "accuracy.none: 1.5 is not between 0 and 1") {
		t.Fatalf("a bad plan: %v", err)
	}
	os.WriteFile(plan, nil, 0o600)
	if _, _, err := runCmd(t, "", nil, "study", "plan", "--plan", plan); err == nil || !strings.Contains(err.Error(), "plan: empty") {
		t.Fatalf("an empty plan: %v", err)
	}
}
