package app_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/export"
	"annotate/internal/studies"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// studyProject is a project with six one-sentence summaries and a lead.
// emptyProject is a new project in a new database of the test's.
func emptyProject(t *testing.T, slug, name string) (context.Context, *tasks.Store, *domain.Project) {
	t.Helper()
	s := testkit.OpenStore(t)
	ctx := context.Background()
	return ctx, s, must(s.CreateProject(ctx, domain.Project{Slug: slug, Name: name, Settings: domain.DefaultSettings()}))(t)
}

// submitItem labels an item's sentence, fills its summary fields and
// submits it, stopping the test on any refusal.
func submitItem(t *testing.T, ctx context.Context, s *tasks.Store, assignment int64, version int, user int64, l domain.SentenceLabel) {
	t.Helper()
	v := must(s.SaveSentenceLabel(ctx, assignment, user, version, l))(t)
	if _, err := s.SaveSummaryLabel(ctx, assignment, user, v, domain.SummaryLabel{Relevance: 5, TopicCategory: "main"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(ctx, assignment, user); err != nil {
		t.Fatal(err)
	}
}

// importAlternatingGold imports 8 one-sentence summaries whose gold
// alternates faithful and unfaithful, the sentences and ids written from
// the formats, and returns each sentence's gold label by its text.
func importAlternatingGold(t *testing.T, ctx context.Context, s *tasks.Store, p *domain.Project, text, docID, summaryID string) map[string]string {
	t.Helper()
	gold := map[string]string{}
	var docs []domain.DocumentInput
	for i := 1; i <= 8; i++ {
		g := &domain.GoldInput{Label: domain.LabelFaithful}
		if i%2 == 0 {
			g = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No."}
		}
		text := fmt.Sprintf(text, i)
		gold[text] = g.Label
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf(docID, i), Sentences: []string{"A source."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf(summaryID, i), Sentences: []domain.SentenceInput{{Text: text, Gold: g}}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	return gold
}

func studyProject(t *testing.T) (context.Context, *tasks.Store, *domain.Project) {
	t.Helper()
	ctx, s, p := emptyProject(t, "crowd", "Crowd")
	var docs []domain.DocumentInput
	for i := 1; i <= 6; i++ {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met.", "It deferred the budget."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: "The council approved the budget."}}}}})
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
	def := `{"round":"crowd","conditions":["debate","none"],"seed":1,"attention_rate":0,"k":2,"items_per_participant":3,"consent":"I agree to take part.",
		"completion":{"completed":"DONE42","no_consent":"NOPE7"}}`
	st, err := ops.CreateStudy(ctx, p, "pilot", []byte(def))
	if err != nil {
		t.Fatal(err)
	}
	if st.Items != 6 || st.RoundName != "crowd" || st.Definition.Seed != 1 || st.Definition.Completion.ScreenedOut == "" {
		t.Fatalf("study %+v", st)
	}
	if _, err := ops.CreateStudy(ctx, p, "pilot", []byte(def)); domain.ErrorCode(err) != domain.EConflict {
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
	if _, err := ops.EnterStudy(ctx, st.EntryToken, other); domain.ErrorCode(err) != domain.EForbidden {
		t.Fatalf("alice's id from another session: %v", err)
	}
	if _, err := ops.EnterStudy(ctx, "not-the-token", link("alice")); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("a wrong token: %v", err)
	}
	if _, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"PROLIFIC_PID": {"a b"}}); domain.ErrorCode(err) != domain.EInvalid {
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
	bp := must(ops.Studies().ParticipantOfUser(ctx, b.Participant.UserID))(t)
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
		ap = must(ops.Studies().ParticipantOfUser(ctx, ap.UserID))(t)
	}
	if err := ops.StudyAnswer(ctx, ap, "accept"); domain.ErrorCode(err) != domain.EConflict {
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
		sum := must(s.Summary(ctx, as.SummaryID))(t)
		saved, _, err := s.SaveSentenceLabelFromPage(ctx, as.ID, ap.UserID, as.Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelUnfaithful,
			ErrorTypes: []string{"contradiction"}, Explanation: "Deferred.", Ambiguous: &no})
		if err != nil {
			t.Fatal(err)
		}
		// The label records the assistant as the condition showed it.
		if want := ap.Condition == "debate"; saved.AssistantVisible != want {
			t.Errorf("condition %s: a label saved with the assistant visible = %v", ap.Condition, saved.AssistantVisible)
		}
		if _, err := s.SaveSummaryLabel(ctx, as.ID, ap.UserID, as.Version+1, domain.SummaryLabel{Relevance: 5, TopicCategory: "main"}); err != nil && domain.ErrorCode(err) != domain.EInvalid {
			t.Fatal(err)
		}
		if err := s.Submit(ctx, as.ID, ap.UserID); err != nil {
			t.Fatalf("submit item %d: %v", i+1, err)
		}
		if i > 3 {
			t.Fatal("more items than items_per_participant")
		}
	}
	ap = must(ops.Studies().ParticipantOfUser(ctx, ap.UserID))(t)
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
	st, err := ops.CreateStudy(ctx, p, "pilot", []byte(`{"round":"crowd","attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	old := st.EntryToken
	if err := ops.SetStudyEntry(ctx, st, true, true); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.EnterStudy(ctx, old, url.Values{"pid": {"x"}}); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("the replaced link: %v", err)
	}
	st = must(ops.Studies().ByID(ctx, st.ID))(t)
	if _, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {"x"}}); err != nil {
		t.Fatalf("the new link: %v", err)
	}
	if err := ops.SetStudyEntry(ctx, st, false, false); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {"y"}}); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("a closed study: %v", err)
	}
}

// TestAttentionChecksExclude: summaries with gold are mixed into each
// participant's work as attention checks (two per two items here). A
// participant who labels a check against its gold is excluded when they
// finish: they still get their completion code, their assignments are
// released (labels kept, counted nowhere) and the items go back, so that
// the next participants get them and every item reaches k = 1 valid label.
func TestAttentionChecksExclude(t *testing.T) {
	ctx, s, p := emptyProject(t, "c", "C")
	var docs []domain.DocumentInput
	for i := 1; i <= 6; i++ {
		sent := domain.SentenceInput{Text: "The council deferred the budget."}
		if i > 4 { // two summaries with gold: the checks
			sent.Gold = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "Approved, not deferred."}
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council approved the budget."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{sent}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(s)
	st, err := ops.CreateStudy(ctx, p, "checked", []byte(`{"round":"crowd","k":1,"items_per_participant":2,"attention_rate":0.5,"exclude":"any_failed_check","completion":{"completed":"DONE"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if st.Items != 4 || st.Checks != 2 {
		t.Fatalf("items %d, checks %d", st.Items, st.Checks)
	}
	// work enters a participant and labels everything dealt to them:
	// checks as right says, the items faithful.
	no := false
	work := func(pid string, right bool) (*studies.Participant, []int64) {
		t.Helper()
		in, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {pid}})
		if err != nil {
			t.Fatal(err)
		}
		part := in.Participant
		if err := ops.StudyAnswer(ctx, part, "start"); err != nil {
			t.Fatal(err)
		}
		part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
		var items []int64
		for range 10 {
			step, err := ops.NextStep(ctx, st, part)
			if err != nil {
				t.Fatal(err)
			}
			if step.Assignment == 0 {
				if step.Code != "DONE" {
					t.Fatalf("%s ended with %+v", pid, step)
				}
				part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
				return part, items
			}
			as := must(s.AssignmentByID(ctx, step.Assignment))(t)
			sum := must(s.Summary(ctx, as.SummaryID))(t)
			_, isCheck, _ := ops.Studies().CheckOf(ctx, as.ID)
			label := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no}
			if isCheck && right {
				label = domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No.", Ambiguous: &no}
			}
			if !isCheck {
				items = append(items, as.SummaryID)
			}
			submitItem(t, ctx, s, as.ID, as.Version, part.UserID, label)
		}
		t.Fatalf("%s never finished", pid)
		return nil, nil
	}
	bad, badItems := work("careless", false)
	if !bad.Excluded || !strings.Contains(bad.Why, "check") || len(badItems) != 2 {
		t.Fatalf("careless: %+v, items %v", bad, badItems)
	}
	checks := must(ops.Studies().Checks(ctx, bad.ID))(t)
	if len(checks) != 2 || checks[0].Passed == nil || *checks[0].Passed {
		t.Fatalf("careless's checks %+v", checks)
	}
	good1, items1 := work("careful1", true)
	good2, items2 := work("careful2", true)
	if good1.Excluded || good2.Excluded {
		t.Fatalf("a careful participant excluded: %+v %+v", good1, good2)
	}
	got := append(append([]int64{}, items1...), items2...)
	slices.Sort(got)
	if len(got) != 4 || slices.Compact(slices.Clone(got))[3] != got[3] {
		t.Fatalf("the careful participants were dealt %v, want the four items once each", got)
	}
	for _, id := range badItems {
		if !slices.Contains(got, id) {
			t.Errorf("item %d of the excluded participant was not dealt again", id)
		}
	}
	// The excluded participant's assignments are released: counted nowhere.
	prog, err := s.RoundProgress(ctx, st.RoundID)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range prog {
		if pr.UserID == bad.UserID && (pr.Total != 0 || pr.Released != 4) {
			t.Errorf("the excluded participant's assignments: %+v, want all 4 released", pr)
		}
	}
	// A lead includes the careless participant again, then excludes them
	// by hand: their assignments come back as submitted, then go again;
	// each decision is kept.
	if err := ops.SetExcluded(ctx, st, bad.Number+1, false, "  ", 0); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("no reason: %v", err)
	}
	if err := ops.SetExcluded(ctx, st, bad.Number+1, false, "The check's gold is disputed.", 0); err != nil {
		t.Fatal(err)
	}
	prog = must(s.RoundProgress(ctx, st.RoundID))(t)
	for _, pr := range prog {
		if pr.UserID == bad.UserID && (pr.Submitted != 4 || pr.Released != 0) {
			t.Errorf("included again: %+v, want the 4 submitted back", pr)
		}
	}
	if err := ops.SetExcluded(ctx, st, bad.Number+1, false, "again", 0); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("including an included participant: %v", err)
	}
	if err := ops.SetExcluded(ctx, st, bad.Number+1, true, "Answers in under a second.", 0); err != nil {
		t.Fatal(err)
	}
	ds, err := ops.Studies().Decisions(ctx, bad.ID)
	if err != nil || len(ds) != 3 || !ds[0].Excluded || ds[1].Excluded || !ds[2].Excluded || !strings.HasPrefix(ds[0].Reason, "by the study's rule") ||
		ds[1].Reason != "The check's gold is disputed." {
		t.Fatalf("decisions %+v %v", ds, err)
	}
	// The raw export marks the checks and the excluded participant.
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
	col := func(name string) int { return slices.Index(rows[0], name) }
	excluded, checked := 0, 0
	for _, r := range rows[1:] {
		if r[col("excluded")] == "true" {
			excluded++
			if r[col("attention_check")] == "true" {
				checked++
			}
		}
	}
	if excluded != 4 || checked != 2 {
		t.Errorf("the raw export has %d rows of the excluded participant, %d of them checks; want 4 and 2", excluded, checked)
	}
}

// TestScreening: a study with a screening test of two gold summaries
// (pass at 100%) deals them first, with the assistant hidden. A
// participant who gets one wrong is screened out: their code, no item
// dealt, the test's labels counted nowhere. One who gets both right goes
// on to the items.
func TestScreening(t *testing.T) {
	ctx, s, p := emptyProject(t, "sc", "SC")
	var docs []domain.DocumentInput
	for i := 1; i <= 5; i++ {
		sent := domain.SentenceInput{Text: "The council deferred the budget."}
		if i > 3 {
			sent.Gold = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "Approved."}
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council approved the budget."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{sent}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(s)
	if _, err := ops.CreateStudy(ctx, p, "big", []byte(`{"round":"big","attention_rate":0,"screening":{"items":3,"pass":1}}`)); err == nil ||
		!strings.Contains(err.Error(), "screening.items: the test takes 3 summaries with gold on every sentence, and the round has 2") {
		t.Fatalf("a test larger than the gold: %v", err)
	}
	st, err := ops.CreateStudy(ctx, p, "sc", []byte(`{"round":"crowd","attention_rate":0,"items_per_participant":2,"screening":{"items":2,"pass":1},
		"completion":{"completed":"DONE","screened_out":"OUT"}}`))
	if err != nil {
		t.Fatal(err)
	}
	no := false
	take := func(pid string, wrong int) (*studies.Participant, app.StudyStep) {
		t.Helper()
		in, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {pid}})
		if err != nil {
			t.Fatal(err)
		}
		part := in.Participant
		if err := ops.StudyAnswer(ctx, part, "start"); err != nil {
			t.Fatal(err)
		}
		part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
		if part.Phase != studies.PhaseScreening {
			t.Fatalf("after start: %s", part.Phase)
		}
		for i := 0; ; i++ {
			step, err := ops.NextStep(ctx, st, part)
			if err != nil {
				t.Fatal(err)
			}
			part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
			if step.Assignment == 0 || part.Phase != studies.PhaseScreening {
				return part, step
			}
			if x, own, _ := s.AssignmentAssistance(ctx, step.Assignment); !own || x.Visibility != domain.AssistNever {
				t.Errorf("a screening item shows the assistant: %+v", x)
			}
			as := must(s.AssignmentByID(ctx, step.Assignment))(t)
			sum := must(s.Summary(ctx, as.SummaryID))(t)
			l := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No.", Ambiguous: &no}
			if i == wrong {
				l = domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no}
			}
			submitItem(t, ctx, s, as.ID, as.Version, part.UserID, l)
		}
	}
	out, step := take("failing", 1)
	if out.Phase != studies.PhaseScreenedOut || step.Code != "OUT" {
		t.Fatalf("failed the test: %s, %+v", out.Phase, step)
	}
	prog := must(s.RoundProgress(ctx, st.RoundID))(t)
	for _, pr := range prog {
		if pr.UserID == out.UserID && (pr.Total != 0 || pr.Released != 2) {
			t.Errorf("a screened-out participant holds %+v, want only the 2 test summaries, released", pr)
		}
	}
	in, step := take("passing", -1)
	if in.Phase != studies.PhaseWork || step.Assignment == 0 {
		t.Fatalf("passed the test: %s, %+v", in.Phase, step)
	}
	as := must(s.AssignmentByID(ctx, step.Assignment))(t)
	if as.SummaryID > 3 {
		t.Errorf("the first item after the test is summary %d, one of the test's", as.SummaryID)
	}
}

// TestStudyReport: two participants per condition label eight items with
// gold; those without the assistant are always right, those with the
// debate always wrong. The report gives accuracy 1 and 0, a difference of
// −1 from none, participants by outcome, and leaves out an excluded
// participant's labels.
func TestStudyReport(t *testing.T) {
	ctx, s, p := emptyProject(t, "r", "R")
	gold := importAlternatingGold(t, ctx, s, p, "Sentence %d.", "d%d", "s%d")
	ops := app.New(s)
	st, err := ops.CreateStudy(ctx, p, "exp", []byte(`{"round":"crowd","conditions":["none","debate"],"seed":1,"k":4,"items_per_participant":8,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	no := false
	opposite := map[string]string{domain.LabelFaithful: domain.LabelUnfaithful, domain.LabelUnfaithful: domain.LabelFaithful}
	for i := range 5 {
		in, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {fmt.Sprintf("p%d", i)}})
		if err != nil {
			t.Fatal(err)
		}
		part := in.Participant
		ops.StudyAnswer(ctx, part, "start")
		part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
		for {
			step, err := ops.NextStep(ctx, st, part)
			if err != nil {
				t.Fatal(err)
			}
			if step.Assignment == 0 {
				break
			}
			as := must(s.AssignmentByID(ctx, step.Assignment))(t)
			sum := must(s.Summary(ctx, as.SummaryID))(t)
			want := gold[sum.Sentences[0].Text]
			if part.Condition == "debate" {
				want = opposite[want]
			}
			l := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: want, Ambiguous: &no}
			if want == domain.LabelUnfaithful {
				l.ErrorTypes, l.Explanation = []string{"contradiction"}, "No."
			}
			submitItem(t, ctx, s, as.ID, as.Version, part.UserID, l)
		}
		if i == 4 { // the fifth is excluded by hand
			if err := ops.Studies().Exclude(ctx, st, part, "by hand", 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, err := ops.ReportStudy(ctx, st, experiment.Options{Replicates: 200, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Participants.Entered != 5 || rep.Participants.Completed != 4 || rep.Participants.Excluded != 1 || rep.Observations != 32 {
		t.Fatalf("report %+v", rep)
	}
	got := map[string]float64{}
	var diff float64
	for _, c := range rep.Analysis.Conditions {
		got[c.Name] = c.Figures[experiment.Accuracy].Value
		if d, ok := c.VsBaseline[experiment.Accuracy]; ok {
			diff = d.Value
		}
	}
	if got["none"] != 1 || got["debate"] != 0 || diff != -1 {
		t.Fatalf("accuracy %v, difference %v", got, diff)
	}
}

// TestTraining: after the screening test a participant labels the
// training items one by one, each followed by feedback (their label,
// gold and its explanation) that they move on from; then their items.
func TestTraining(t *testing.T) {
	ctx, s, p := emptyProject(t, "t", "T")
	var docs []domain.DocumentInput
	for i := 1; i <= 5; i++ {
		sent := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i)}
		if i > 2 {
			sent.Gold = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "The source says otherwise."}
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"A source."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{sent}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(s)
	if _, err := ops.CreateStudy(ctx, p, "big", []byte(`{"round":"big","attention_rate":0,"screening":{"items":2,"pass":0.01},"training":{"items":2}}`)); err == nil ||
		!strings.Contains(err.Error(), "training and the screening test take 4") {
		t.Fatalf("too little gold for both: %v", err)
	}
	st, err := ops.CreateStudy(ctx, p, "t", []byte(`{"round":"crowd","attention_rate":0,"items_per_participant":1,"screening":{"items":1,"pass":0.01},"training":{"items":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {"p"}})
	if err != nil {
		t.Fatal(err)
	}
	part := in.Participant
	ops.StudyAnswer(ctx, part, "start")
	no := false
	seen := map[int64]bool{}
	feedbacks := 0
	for range 20 {
		part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
		step, err := ops.NextStep(ctx, st, part)
		if err != nil {
			t.Fatal(err)
		}
		if step.Feedback != nil {
			feedbacks++
			f := step.Feedback[0]
			if f.Label != domain.LabelFaithful || f.Gold != domain.LabelUnfaithful || f.Explanation != "The source says otherwise." || f.Right {
				t.Fatalf("feedback %+v", f)
			}
			if err := ops.StudyAnswer(ctx, part, "next"); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if step.Assignment == 0 {
			break
		}
		if seen[step.Assignment] {
			t.Fatalf("assignment %d offered twice", step.Assignment)
		}
		seen[step.Assignment] = true
		part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
		as := must(s.AssignmentByID(ctx, step.Assignment))(t)
		sum := must(s.Summary(ctx, as.SummaryID))(t)
		l := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no}
		if part.Phase == studies.PhaseScreening { // pass the test
			l = domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No.", Ambiguous: &no}
		}
		submitItem(t, ctx, s, as.ID, as.Version, part.UserID, l)
	}
	part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
	if feedbacks != 2 || len(seen) != 4 || part.Phase != studies.PhaseCompleted {
		t.Fatalf("%d feedbacks, %d summaries labelled, phase %s; want 2, 4 (test, two training, one item), completed", feedbacks, len(seen), part.Phase)
	}
}
