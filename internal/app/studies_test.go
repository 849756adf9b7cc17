package app_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"annotate/internal/app"
	"annotate/internal/export"
	"annotate/internal/studies"
	"annotate/internal/tasks"
)

// studyProject is a project with six one-sentence summaries and a lead.
func studyProject(t *testing.T) (context.Context, *tasks.Store, *tasks.Project) {
	t.Helper()
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p, err := s.CreateProject(ctx, tasks.Project{Slug: "crowd", Name: "Crowd", Settings: tasks.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	var docs []tasks.DocumentInput
	for i := 1; i <= 6; i++ {
		docs = append(docs, tasks.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met.", "It deferred the budget."},
			Summaries: []tasks.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []tasks.SentenceInput{{Text: "The council approved the budget."}}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	return ctx, s, p
}

// TestStudyEntryAndPhases: a study made from a definition gets its round
// over the project's summaries; a Prolific link makes a participant on
// first entry and finds the same one again; declining consent ends with
// the no-consent code; accepting, then starting, deals the items per
// participant, and submitting them all ends with the completion code and
// Prolific's return link.
func TestStudyEntryAndPhases(t *testing.T) {
	ctx, s, p := studyProject(t)
	ops := app.New(s)
	def := `{"round":"crowd","conditions":["debate","none"],"seed":1,"k":2,"items_per_participant":3,"consent":"I agree to take part.",
		"completion":{"completed":"DONE42","no_consent":"NOPE7"}}`
	st, err := ops.CreateStudy(ctx, p, "pilot", []byte(def))
	if err != nil {
		t.Fatal(err)
	}
	if st.Items != 6 || st.RoundName != "crowd" || st.Definition.Seed != 1 || st.Definition.Completion.ScreenedOut == "" {
		t.Fatalf("study %+v", st)
	}
	if _, err := ops.CreateStudy(ctx, p, "pilot", []byte(def)); tasks.ErrorCode(err) != tasks.EConflict {
		t.Fatalf("a second study of the same name: %v", err)
	}
	link := func(pid string) url.Values {
		return url.Values{"PROLIFIC_PID": {pid}, "STUDY_ID": {"st1"}, "SESSION_ID": {"se-" + pid}}
	}
	a, err := ops.EnterStudy(ctx, st.EntryToken, link("alice"))
	// Seed 1 puts the first entrant in the first condition.
	if err != nil || !a.New || a.Participant.Phase != studies.PhaseConsent || a.Participant.Condition != "debate" {
		t.Fatalf("first entry: %+v %v", a, err)
	}
	again, err := ops.EnterStudy(ctx, st.EntryToken, link("alice"))
	if err != nil || again.New || again.Participant.ID != a.Participant.ID {
		t.Fatalf("second entry: %+v %v", again, err)
	}
	// Alice's Prolific id with another session opens nothing of hers.
	other := link("alice")
	other.Set("SESSION_ID", "guessed")
	if _, err := ops.EnterStudy(ctx, st.EntryToken, other); tasks.ErrorCode(err) != tasks.EForbidden {
		t.Fatalf("alice's id from another session: %v", err)
	}
	if _, err := ops.EnterStudy(ctx, "not-the-token", link("alice")); tasks.ErrorCode(err) != tasks.ENotFound {
		t.Fatalf("a wrong token: %v", err)
	}
	if _, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"PROLIFIC_PID": {"a b"}}); tasks.ErrorCode(err) != tasks.EInvalid {
		t.Fatalf("a malformed id: %v", err)
	}

	// bob declines.
	b, err := ops.EnterStudy(ctx, st.EntryToken, link("bob"))
	if err != nil {
		t.Fatal(err)
	}
	if err := ops.StudyAnswer(ctx, b.Participant, "decline"); err != nil {
		t.Fatal(err)
	}
	bp, _ := ops.Studies().ParticipantOfUser(ctx, b.Participant.UserID)
	step, err := ops.NextStep(ctx, st, bp)
	if err != nil || step.Code != "NOPE7" || !strings.HasSuffix(step.Return.URL, "cc=NOPE7") {
		t.Fatalf("declined: %+v %v", step, err)
	}
	if q, _ := s.Queue(ctx, p.ID, bp.UserID); len(q) != 0 {
		t.Fatalf("a participant who declined was dealt %d items", len(q))
	}
	if conds := a.Participant.Condition + "," + b.Participant.Condition; conds != "none,debate" && conds != "debate,none" {
		t.Errorf("the first block's conditions are %s, want each once", conds)
	}

	// alice accepts, starts and labels.
	ap := a.Participant
	for _, answer := range []string{"accept", "start"} {
		if err := ops.StudyAnswer(ctx, ap, answer); err != nil {
			t.Fatal(err)
		}
		ap, _ = ops.Studies().ParticipantOfUser(ctx, ap.UserID)
	}
	if err := ops.StudyAnswer(ctx, ap, "accept"); tasks.ErrorCode(err) != tasks.EConflict {
		t.Fatalf("consent again in the work phase: %v", err)
	}
	no := false
	for i := 0; ; i++ {
		step, err := ops.NextStep(ctx, st, ap)
		if err != nil {
			t.Fatal(err)
		}
		if step.Assignment == 0 {
			if i != 3 || step.Code != "DONE42" || !strings.Contains(step.Return.URL, "cc=DONE42") {
				t.Fatalf("after %d items: %+v", i, step)
			}
			break
		}
		as, err := s.AssignmentByID(ctx, step.Assignment)
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := s.Summary(ctx, as.SummaryID)
		saved, _, err := s.SaveSentenceLabelFromPage(ctx, as.ID, ap.UserID, as.Version, tasks.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: tasks.LabelUnfaithful,
			ErrorTypes: []string{"contradiction"}, Explanation: "Deferred.", Ambiguous: &no})
		if err != nil {
			t.Fatal(err)
		}
		// The label records the assistant as the condition showed it.
		if want := ap.Condition == "debate"; saved.AssistantVisible != want {
			t.Errorf("condition %s: a label saved with the assistant visible = %v", ap.Condition, saved.AssistantVisible)
		}
		if _, err := s.SaveSummaryLabel(ctx, as.ID, ap.UserID, as.Version+1, tasks.SummaryLabel{Relevance: 5, TopicCategory: "main"}); err != nil && tasks.ErrorCode(err) != tasks.EInvalid {
			t.Fatal(err)
		}
		if err := s.Submit(ctx, as.ID, ap.UserID); err != nil {
			t.Fatalf("submit item %d: %v", i+1, err)
		}
		if i > 3 {
			t.Fatal("more items than items_per_participant")
		}
	}
	ap, _ = ops.Studies().ParticipantOfUser(ctx, ap.UserID)
	if ap.Phase != studies.PhaseCompleted || ap.FinishedAt == "" {
		t.Fatalf("participant %+v", ap)
	}

	// The raw export says which study and condition each label is of.
	x, err := export.New(ctx, s, p, export.Options{What: export.Raw, Format: export.CSV})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.Write(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	col := func(name string) int { return slices.Index(head, name) }
	if col("study") < 0 || col("condition") < 0 || len(rows) != 4 {
		t.Fatalf("raw export: %v", rows)
	}
	for _, r := range rows[1:] {
		if r[col("study")] != "pilot" || r[col("condition")] != "debate" || r[col("assistant_visible")] != "true" {
			t.Errorf("row %v", r)
		}
	}
}

// TestStudyEntryRevoked: a replaced link opens nothing, a closed study
// lets nobody in, an opened one does again.
func TestStudyEntryRevoked(t *testing.T) {
	ctx, s, p := studyProject(t)
	ops := app.New(s)
	st, err := ops.CreateStudy(ctx, p, "pilot", []byte(`{"round":"crowd"}`))
	if err != nil {
		t.Fatal(err)
	}
	old := st.EntryToken
	if err := ops.SetStudyEntry(ctx, st, true, true); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.EnterStudy(ctx, old, url.Values{"pid": {"x"}}); tasks.ErrorCode(err) != tasks.ENotFound {
		t.Fatalf("the replaced link: %v", err)
	}
	st, _ = ops.Studies().ByID(ctx, st.ID)
	if _, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {"x"}}); err != nil {
		t.Fatalf("the new link: %v", err)
	}
	if err := ops.SetStudyEntry(ctx, st, false, false); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {"y"}}); tasks.ErrorCode(err) != tasks.ENotFound {
		t.Fatalf("a closed study: %v", err)
	}
}
