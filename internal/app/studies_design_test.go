package app_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/export"
	"annotate/internal/studies"
	"annotate/internal/tasks"
)

// labelAll works through a participant's items with NextStep, labelling
// each one's sentence faithful and submitting it, until no item is left
// or stop says to; it returns the assignments labelled.
func labelAll(t *testing.T, ctx context.Context, s *tasks.Store, ops *app.App, st *studies.Study, part *studies.Participant, stop int) []int64 {
	t.Helper()
	no := false
	var done []int64
	for len(done) != stop {
		step, err := ops.NextStep(ctx, st, part)
		if err != nil {
			t.Fatal(err)
		}
		if step.Assignment == 0 {
			break
		}
		as, err := s.AssignmentByID(ctx, step.Assignment)
		if err != nil {
			t.Fatal(err)
		}
		sum := must(s.Summary(ctx, as.SummaryID))(t)
		submitItem(t, ctx, s, as.ID, as.Version, part.UserID, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no})
		done = append(done, as.ID)
	}
	return done
}

// enter makes a participant by a generic link and starts their work.
func enter(t *testing.T, ctx context.Context, ops *app.App, st *studies.Study, pid string) *studies.Participant {
	t.Helper()
	in, err := ops.EnterStudy(ctx, st.EntryToken, url.Values{"pid": {pid}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ops.StudyAnswer(ctx, in.Participant, "start"); err != nil {
		t.Fatal(err)
	}
	p, err := ops.Studies().ParticipantOfUser(ctx, in.Participant.UserID)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// itemDesign runs a study randomised by item over the six summaries of
// studyProject with three conditions, k 3: three participants label
// everything. It returns, per summary external id and participant
// number, the condition each was dealt.
func itemDesign(t *testing.T) (map[string]string, context.Context, *tasks.Store, *domain.Project, *app.App, *studies.Study) {
	ctx, s, p := studyProject(t)
	ops := app.New(s)
	st, err := ops.CreateStudy(ctx, p, "within", []byte(`{"round":"crowd","conditions":["none","verdict","debate"],"randomise":"item","seed":11,
		"k":3,"items_per_participant":6,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		part := enter(t, ctx, ops, st, fmt.Sprintf("w%d", i))
		if part.Condition != "" {
			t.Errorf("participant %d has condition %q; by item a participant has none of their own", i, part.Condition)
		}
		if n := len(labelAll(t, ctx, s, ops, st, part, -1)); n != 6 {
			t.Fatalf("participant %d labelled %d items, want 6", i, n)
		}
	}
	conds, err := ops.Studies().ItemConditions(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	parts := must(ops.Studies().Participants(ctx, st.ID))(t)
	out := map[string]string{}
	for _, part := range parts {
		q := must(s.Queue(ctx, p.ID, part.UserID))(t)
		for _, as := range q {
			sum := must(s.Summary(ctx, as.SummaryID))(t)
			c, ok := conds[as.ID]
			if !ok {
				t.Fatalf("assignment %d has no recorded condition", as.ID)
			}
			// What the page shows is what was recorded.
			x, own, err := s.AssignmentAssistance(ctx, as.ID)
			if err != nil || !own || x != studies.ConditionAssistance(c) {
				t.Errorf("assignment %d in condition %s shows %+v (own %v, %v)", as.ID, c, x, own, err)
			}
			out[sum.ExternalID+"/"+strconv.Itoa(part.Number)] = c
		}
	}
	return out, ctx, s, p, ops, st
}

// TestItemRandomisationIsALatinSquare: randomised by item, every item is
// seen once in each of the three conditions (k 3), every participant sees
// each condition on two of their six items, the same seed deals the same
// conditions in a second database, and the raw export's condition column
// gives each label its item's condition.
func TestItemRandomisationIsALatinSquare(t *testing.T) {
	got, ctx, s, p, _, _ := itemDesign(t)
	if len(got) != 18 {
		t.Fatalf("%d assignments, want 18", len(got))
	}
	perItem, perPerson := map[string][]string{}, map[string][]string{}
	for k, c := range got {
		item, person := k[:len(k)-2], k[len(k)-1:]
		perItem[item] = append(perItem[item], c)
		perPerson[person] = append(perPerson[person], c)
	}
	for item, cs := range perItem {
		slices.Sort(cs)
		if !slices.Equal(cs, []string{"debate", "none", "verdict"}) {
			t.Errorf("item %s seen in %v, want each condition once", item, cs)
		}
	}
	for person, cs := range perPerson {
		n := map[string]int{}
		for _, c := range cs {
			n[c]++
		}
		if n["none"] != 2 || n["verdict"] != 2 || n["debate"] != 2 {
			t.Errorf("participant %s saw %v, want each condition twice", person, n)
		}
	}
	again, _, _, _, _, _ := itemDesign(t)
	for k, c := range got {
		if again[k] != c {
			t.Fatalf("the same seed dealt %s in %s, then in %s", k, c, again[k])
		}
	}

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
	number := map[string]string{} // annotator → participant number
	parts, _ := app.New(s).Studies().Participants(ctx, mustStudy(t, ctx, s, p).ID)
	for _, part := range parts {
		u := must(s.UserByID(ctx, part.UserID))(t)
		number[u.Username] = strconv.Itoa(part.Number)
	}
	seen := 0
	for _, r := range rows[1:] {
		key := r[col("summary_id")] + "/" + number[r[col("annotator")]]
		if c, ok := got[key]; !ok || r[col("condition")] != c {
			t.Errorf("raw row %s: condition %q, want %q", key, r[col("condition")], c)
		}
		seen++
	}
	if seen != 18 {
		t.Fatalf("raw export has %d rows, want 18", seen)
	}
}

// TestItemRandomisationRefillsAfterRelease: when a participant is
// excluded, their items go back, and the next participant is dealt each
// of them in the condition that was given back, so every item stays seen
// once in every condition.
func TestItemRandomisationRefillsAfterRelease(t *testing.T) {
	_, ctx, s, p, ops, st := itemDesign(t)
	parts := must(ops.Studies().Participants(ctx, st.ID))(t)
	gone := parts[1]
	before := must(ops.Studies().ItemConditions(ctx, p.ID))(t)
	lost := map[int64]string{} // summary → condition given back
	q := must(s.Queue(ctx, p.ID, gone.UserID))(t)
	for _, as := range q {
		lost[as.SummaryID] = before[as.ID]
	}
	if err := ops.Studies().Exclude(ctx, st, &gone, "by hand", 0); err != nil {
		t.Fatal(err)
	}
	next := enter(t, ctx, ops, st, "w-next")
	labelAll(t, ctx, s, ops, st, next, -1)
	after := must(ops.Studies().ItemConditions(ctx, p.ID))(t)
	q = must(s.Queue(ctx, p.ID, next.UserID))(t)
	if len(q) != 6 {
		t.Fatalf("the next participant was dealt %d items, want the 6 given back", len(q))
	}
	for _, as := range q {
		if after[as.ID] != lost[as.SummaryID] {
			t.Errorf("summary %d: dealt again in %s, but %s was given back", as.SummaryID, after[as.ID], lost[as.SummaryID])
		}
	}
	checkDealt(t, ctx, s)
}

// TestTimeLimit: a participant who labels one of three items and then
// runs past the study's time limit finishes with the completion code,
// marked as timed out; their two open items go back and are dealt to the
// next participant; their labels can no longer change.
func TestTimeLimit(t *testing.T) {
	ctx, s, p := studyProject(t)
	ops := app.New(s)
	now := time.Now()
	ops.SetClock(func() time.Time { return now })
	st, err := ops.CreateStudy(ctx, p, "timed", []byte(`{"round":"crowd","conditions":["none"],"k":1,"items_per_participant":3,"attention_rate":0,
		"time_limit":"10m","completion":{"completed":"DONE"}}`))
	if err != nil {
		t.Fatal(err)
	}
	slow := enter(t, ctx, ops, st, "slow")
	if done := labelAll(t, ctx, s, ops, st, slow, 1); len(done) != 1 {
		t.Fatalf("labelled %d", len(done))
	}
	user := must(s.UserByID(ctx, slow.UserID))(t)
	if ops.ParticipantTimeOver(ctx, user) {
		t.Fatal("time over before the limit")
	}
	now = now.Add(11 * time.Minute)
	if !ops.ParticipantTimeOver(ctx, user) {
		t.Fatal("time not over after the limit")
	}
	step, err := ops.NextStep(ctx, st, slow)
	if err != nil || step.Phase != studies.PhaseCompleted || step.Code != "DONE" || !step.TimedOut || step.Assignment != 0 {
		t.Fatalf("after the limit: %+v %v", step, err)
	}
	slow = must(ops.Studies().ParticipantOfUser(ctx, slow.UserID))(t)
	if !slow.TimedOut || slow.Phase != studies.PhaseCompleted {
		t.Fatalf("participant %+v", slow)
	}
	q := must(s.Queue(ctx, p.ID, slow.UserID))(t)
	if len(q) != 1 || q[0].Status != domain.StatusSubmitted {
		t.Fatalf("the timed-out participant holds %+v, want only the submitted item", q)
	}
	// The next participant gets the two back. (Entry times are the
	// database's clock: back to it, so the newcomer has their time.)
	now = time.Now()
	if !ops.ParticipantTimeOver(ctx, user) {
		t.Fatal("a timed-out participant's time is over for good")
	}
	next := enter(t, ctx, ops, st, "next")
	if done := labelAll(t, ctx, s, ops, st, next, -1); len(done) != 3 {
		t.Fatalf("the next participant labelled %d items, want 3", len(done))
	}
	prog := must(s.RoundProgress(ctx, st.RoundID))(t)
	submitted := 0
	for _, pr := range prog {
		submitted += pr.Submitted
	}
	if submitted != 4 {
		t.Fatalf("%d items submitted in the round, want 4 (1 + 3)", submitted)
	}
	checkDealt(t, ctx, s)
}

// mustStudy returns the project's one study.
func mustStudy(t *testing.T, ctx context.Context, s *tasks.Store, p *domain.Project) *studies.Study {
	t.Helper()
	list, err := app.New(s).Studies().List(ctx, p.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("studies: %v %v", list, err)
	}
	return &list[0]
}

// TestExclusionByScreeningScore: a study whose test lets in half right
// and whose rule excludes a screening score below 1 keeps the
// participant who got the test all right and excludes, at the end of
// their work, the one who got half.
func TestExclusionByScreeningScore(t *testing.T) {
	ctx, s, p := studyProject(t)
	var docs []domain.DocumentInput
	for i := 1; i <= 2; i++ {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("g%d", i), Sentences: []string{"The council approved the budget."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("gs%d", i), Sentences: []domain.SentenceInput{{Text: "The council approved it.",
				Gold: &domain.GoldInput{Label: domain.LabelFaithful}}}}}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(s)
	st, err := ops.CreateStudy(ctx, p, "sc", []byte(`{"round":"crowd","conditions":["none"],"k":2,"items_per_participant":2,"attention_rate":0,
		"screening":{"items":2,"pass":0.5},"exclude":"screening_below 1"}`))
	if err != nil {
		t.Fatal(err)
	}
	no := false
	take := func(pid string, wrong bool) *studies.Participant {
		t.Helper()
		part := enter(t, ctx, ops, st, pid)
		for i := 0; ; i++ {
			step, err := ops.NextStep(ctx, st, part)
			if err != nil {
				t.Fatal(err)
			}
			part = must(ops.Studies().ParticipantOfUser(ctx, part.UserID))(t)
			if step.Assignment == 0 {
				return part
			}
			as := must(s.AssignmentByID(ctx, step.Assignment))(t)
			sum := must(s.Summary(ctx, as.SummaryID))(t)
			l := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no}
			if wrong && i == 0 { // the first screening summary wrong
				l = domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No.", Ambiguous: &no}
			}
			submitItem(t, ctx, s, as.ID, as.Version, part.UserID, l)
		}
	}
	half := take("half", true)
	if half.Phase != studies.PhaseCompleted || !half.Excluded || half.Why != "by the study's rule: screening score 0.50 below 1" {
		t.Fatalf("half right in the test: phase %s, excluded %v (%q)", half.Phase, half.Excluded, half.Why)
	}
	all := take("all", false)
	if all.Phase != studies.PhaseCompleted || all.Excluded {
		t.Fatalf("all right in the test: phase %s, excluded %v (%q)", all.Phase, all.Excluded, all.Why)
	}
}

// checkDealt fails when a study item's dealing count differs from its
// live assignments in the study's round counted row by row.
func checkDealt(t *testing.T, ctx context.Context, s *tasks.Store) {
	t.Helper()
	var bad, items int
	err := s.Reader(ctx).QueryRowContext(ctx, `SELECT count(*), coalesce(sum(i.dealt != (SELECT count(*) FROM assignments a JOIN studies st ON st.id = i.study_id
		WHERE a.round_id = st.round_id AND a.summary_id = i.summary_id AND a.status != 'released')), 0) FROM study_items i`).Scan(&items, &bad)
	if err != nil {
		t.Fatal(err)
	}
	if items == 0 || bad != 0 {
		t.Fatalf("%d of %d study items have a dealing count that is not their live assignments", bad, items)
	}
}

// TestCrowdAggregation: three participants always right and one who
// always says faithful label eight sentences with gold. The report's
// crowd section gives each participant's competence under Dawid–Skene and
// MACE (the one who always says faithful lowest under both), and each
// method's accuracy against gold, the majority's checked against a count
// made here from the labels given; with fewer than 20 sentences with
// gold it proposes Dawid–Skene and says why.
func TestCrowdAggregation(t *testing.T) {
	ctx, s, p := studyProject(t)
	gold := importAlternatingGold(t, ctx, s, p, "Claim %d.", "g%d", "gs%d")
	ops := app.New(s)
	st, err := ops.CreateStudy(ctx, p, "crowd", []byte(`{"round":"crowd","conditions":["none"],"k":4,"items_per_participant":14,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	no := false
	votes := map[string][2]int{} // sentence text → faithful, unfaithful votes
	for i := range 4 {
		part := enter(t, ctx, ops, st, fmt.Sprintf("c%d", i))
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
			text := sum.Sentences[0].Text
			label := gold[text]
			if i == 3 || label == "" {
				label = domain.LabelFaithful
			}
			l := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: label, Ambiguous: &no}
			if label == domain.LabelUnfaithful {
				l.ErrorTypes, l.Explanation = []string{"contradiction"}, "No."
			}
			submitItem(t, ctx, s, as.ID, as.Version, part.UserID, l)
			if _, ok := gold[text]; ok {
				x := votes[text]
				if label == domain.LabelUnfaithful {
					x[1]++
				} else {
					x[0]++
				}
				votes[text] = x
			}
		}
	}
	rep, err := ops.ReportStudy(ctx, st, experiment.Options{Replicates: 100, Permutations: 100})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Crowd
	if c == nil || len(c.Participants) != 4 || len(c.Methods) != 3 {
		t.Fatalf("crowd section %+v", c)
	}
	// Majority accuracy counted here from the labels given.
	right, withGold := 0, 0
	for text, v := range votes {
		withGold++
		if (v[1] > v[0] && gold[text] == domain.LabelUnfaithful) || (v[0] > v[1] && gold[text] == domain.LabelFaithful) {
			right++
		}
	}
	maj := c.Methods[0]
	if maj.Method != "majority" || maj.WithGold != withGold || math.Abs(maj.Accuracy-float64(right)/float64(withGold)) > 1e-12 {
		t.Fatalf("majority %+v; counted here %d of %d right", maj, right, withGold)
	}
	last := c.Participants[3]
	for _, q := range c.Participants[:3] {
		if !(last.DawidSkene < q.DawidSkene && last.MACE < q.MACE) {
			t.Errorf("%s (always faithful): competence %.3f / %.3f, not below %s's %.3f / %.3f", last.Participant, last.DawidSkene, last.MACE, q.Participant, q.DawidSkene, q.MACE)
		}
	}
	if c.Uses != "dawid_skene" || !strings.Contains(c.Why, "too few sentences with gold (8") {
		t.Fatalf("uses %s: %s", c.Uses, c.Why)
	}
}

// TestPlanStudy: the chance to detect debate's planted 15-point gain over
// none grows with the number of participants, a condition planted equal
// to none is detected about as often as the 5% level allows, and a plan
// without none or with too many participants is refused naming the field.
func TestPlanStudy(t *testing.T) {
	plan, err := experiment.ParsePlan([]byte(`{"participants":1,"accuracy":{"none":0.75,"verdict":0.75,"debate":0.9},"follow_when_visible":0,"seed":2}`))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := app.PlanStudy(context.Background(), plan, []int{12, 90}, 60)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || len(rows[0].Power) != 2 || rows[1].Power[1].Condition != "debate" {
		t.Fatalf("rows %+v", rows)
	}
	small, large := rows[0].Power[1].Power, rows[1].Power[1].Power
	if !(large > small && large >= 0.8) {
		t.Errorf("debate detected in %.2f of studies with 12 participants and %.2f with 90", small, large)
	}
	if null := rows[1].Power[0].Power; null > 0.15 {
		t.Errorf("verdict, planted equal to none, detected in %.2f of studies", null)
	}
	bad, _ := experiment.ParsePlan([]byte(`{"participants":1,"accuracy":{"debate":0.9}}`))
	if _, err := app.PlanStudy(context.Background(), bad, nil, 10); err == nil || !strings.Contains(err.Error(), "accuracy") {
		t.Errorf("a plan without none: %v", err)
	}
	if _, err := app.PlanStudy(context.Background(), plan, []int{5000}, 10); err == nil || !strings.Contains(err.Error(), "participants[0]") {
		t.Errorf("5,000 participants: %v", err)
	}
}

// TestCrowdAggregationNeedsOverlap: when every sentence has one label (k
// 1), no model can tell anyone's competence, so the crowd section gives
// none and says why instead of figures of 0 or 1.
func TestCrowdAggregationNeedsOverlap(t *testing.T) {
	ctx, s, p := studyProject(t)
	ops := app.New(s)
	st, err := ops.CreateStudy(ctx, p, "alone", []byte(`{"round":"crowd","conditions":["none"],"k":1,"items_per_participant":3,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		labelAll(t, ctx, s, ops, st, enter(t, ctx, ops, st, fmt.Sprintf("a%d", i)), -1)
	}
	rep, err := ops.ReportStudy(ctx, st, experiment.Options{Replicates: 100, Permutations: 100})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Crowd
	if c == nil || c.Uses != "none" || len(c.Participants) != 0 || !strings.Contains(c.Why, "no sentence has labels from two participants yet (6 labels") {
		t.Fatalf("crowd section without overlap: %+v", c)
	}
}
