package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/studies"
	"annotate/internal/study"
)

// Studies are the project's crowd studies.
func (a *App) Studies() *studies.Store { return a.studies }

// CreateStudy reads a study definition (study.json, see docs/studies.md)
// and makes the study: its round over the project's summaries when the
// round does not exist, else the summaries that round deals; a seed and
// completion codes drawn where the definition leaves them out; a fresh
// entry link.
func (a *App) CreateStudy(ctx context.Context, p *domain.Project, name string, definition []byte) (*studies.Study, error) {
	var c check
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 100 {
		c.add("name", "give the study a name of 1 to 100 characters")
	} else if err := domain.CheckText("study name", name, domain.MaxNameLen, false); err != nil {
		c.add("name", domain.ErrorMessage(err))
	}
	def, err := study.Parse(bytes.NewReader(definition))
	if err != nil {
		c.add("definition", err.Error())
	}
	if err := c.err(); err != nil {
		return nil, domain.Op("App.CreateStudy", err)
	}
	if _, err := a.Studies().ByName(ctx, p.ID, name); err == nil {
		return nil, domain.Errorf(domain.EConflict, "a study named %q already exists in this project", name)
	}
	if def.Seed == 0 {
		def.Seed = randomUint64()
	}
	for _, code := range []*string{&def.Completion.Completed, &def.Completion.NoConsent, &def.Completion.ScreenedOut} {
		if *code == "" {
			*code = strings.ToUpper(rand.Text()[:8])
		}
	}
	n := studies.NewStudy{Name: name, Definition: *def, EntryToken: rand.Text()}
	r, err := a.work.RoundByName(ctx, p.ID, def.Round)
	switch {
	case err == nil:
		n.Round = r.ID
		if n.Summaries, err = a.work.RoundSummaryIDs(ctx, r.ID); err != nil {
			return nil, domain.Op("App.CreateStudy", err)
		}
	case domain.ErrorCode(err) == domain.ENotFound:
		if n.Summaries, err = a.work.SummaryIDs(ctx, p.ID, nil); err != nil {
			return nil, domain.Op("App.CreateStudy", err)
		}
	default:
		return nil, domain.Op("App.CreateStudy", err)
	}
	// Attention checks are the summaries with gold on every sentence;
	// they are mixed in, never dealt as items.
	checks := def.AttentionRate != nil && *def.AttentionRate > 0
	if checks || def.Screening != nil || def.Training != nil {
		gold, err := a.Studies().GoldSummaries(ctx, p.ID)
		if err != nil {
			return nil, domain.Op("App.CreateStudy", err)
		}
		items := n.Summaries[:0:0]
		for _, id := range n.Summaries {
			if gold[id] {
				n.Checks = append(n.Checks, id)
			} else {
				items = append(items, id)
			}
		}
		n.Summaries = items
		if checks && len(n.Checks) == 0 {
			return nil, &Invalid{Fields: []FieldError{{"definition", "attention_rate: attention checks are summaries with gold on every sentence, and the round has none; import gold, or set \"attention_rate\": 0"}}}
		}
		if def.Screening != nil && len(n.Checks) < def.Screening.Items {
			return nil, &Invalid{Fields: []FieldError{{"definition", fmt.Sprintf("screening.items: the test takes %d summaries with gold on every sentence, and the round has %d", def.Screening.Items, len(n.Checks))}}}
		}
		if def.Training != nil {
			need := def.Training.Items
			if def.Screening != nil {
				need += def.Screening.Items
			}
			if len(n.Checks) < need {
				return nil, &Invalid{Fields: []FieldError{{"definition", fmt.Sprintf("training.items: training and the screening test take %d summaries with gold on every sentence, and the round has %d", need, len(n.Checks))}}}
			}
		}
	}
	if len(n.Summaries) == 0 {
		return nil, &Invalid{Fields: []FieldError{{"definition", fmt.Sprintf("round: %q deals no summaries without gold, and a study needs some", def.Round)}}}
	}
	val, err := a.Studies().Create(ctx, p.ID, n)
	return val, domain.Op("App.CreateStudy", err)
}

// ErrStudyClosed says a study's entry link is unknown, revoked or closed.
var ErrStudyClosed = domain.Errorf(domain.ENotFound, "this study link is not open: it may have ended, or the link is mistyped")

// Entered is where an entry link leads: the study, and the participant
// (nil for an MTurk preview, who sees the instructions only).
type Entered struct {
	Study       *studies.Study
	Project     *domain.Project
	Entry       study.Entry
	Participant *studies.Participant
	New         bool
}

// EnterStudy follows a study's entry link: the study by its token, the
// participant the link's parameters name, made on first entry and found
// again on the next (on any device), condition drawn by the study's
// randomisation. An MTurk preview makes nobody.
func (a *App) EnterStudy(ctx context.Context, token string, q url.Values) (*Entered, error) {
	st, err := a.Studies().ByToken(ctx, token)
	if err != nil || !st.Open {
		return nil, domain.Op("App.EnterStudy", ErrStudyClosed)
	}
	e, err := study.ParseEntry(q)
	if err != nil {
		return nil, domain.Errorf(domain.EInvalid, "%v", err)
	}
	p, err := a.work.ProjectByID(ctx, st.ProjectID)
	if err != nil {
		return nil, domain.Op("App.EnterStudy", err)
	}
	out := &Entered{Study: st, Project: p, Entry: e}
	if e.Preview {
		return out, nil
	}
	first := studies.PhaseInstructions
	if st.Definition.Consent != "" {
		first = studies.PhaseConsent
	}
	conds := st.Definition.Conditions
	condition := func(n int) string {
		if st.Definition.Randomise == "item" && len(conds) > 1 {
			return "" // each item's own, decided as it is dealt
		}
		if len(conds) == 1 {
			return conds[0]
		}
		return conds[experiment.ParticipantCondition(st.Definition.Seed, n, len(conds))]
	}
	out.Participant, out.New, err = a.Studies().Enter(ctx, st, e, participantPrefix+strings.ToLower(rand.Text()[:12]), first, condition)
	return out, domain.Op("App.EnterStudy", err)
}

// StudyStep is what a participant is shown next.
type StudyStep struct {
	Phase string
	// Assignment is the next item to label (phase work), 0 when none.
	Assignment int64
	// Code is the completion code of an ended study, with the way back
	// to the platform.
	Code   string
	Return study.Return
	// Feedback is a training item's feedback, shown before the next one.
	Feedback []FeedbackSentence
	// TimedOut says the study's time limit ended the participant's work.
	TimedOut bool
}

// FeedbackSentence is one sentence of a training item: the participant's
// label beside gold and its explanation.
type FeedbackSentence struct {
	Text, Label, Gold, Explanation string
	ErrorTypes                     []string
	Right                          bool
}

// NextStep moves a participant on: from the work phase to completed once
// every item dealt is submitted (dealing items on the way in), and says
// what to show.
func (a *App) NextStep(ctx context.Context, st *studies.Study, p *studies.Participant) (StudyStep, error) {
	if err := a.endIfTimeOver(ctx, st, p); err != nil {
		return StudyStep{}, domain.Op("App.NextStep", err)
	}
	step := StudyStep{Phase: p.Phase, TimedOut: p.TimedOut}
	if p.Phase == studies.PhaseScreening {
		next, err := a.screeningStep(ctx, st, p)
		if err != nil || next != 0 {
			step.Assignment = next
			return step, domain.Op("App.NextStep", err)
		}
		if p, err = a.Studies().ParticipantOfUser(ctx, p.UserID); err != nil {
			return step, domain.Op("App.NextStep", err)
		}
		step.Phase = p.Phase
	}
	if p.Phase == studies.PhaseTraining {
		var err error
		if step, err = a.trainingStep(ctx, st, p); err != nil || step.Phase == studies.PhaseTraining {
			return step, domain.Op("App.NextStep", err)
		}
		if p, err = a.Studies().ParticipantOfUser(ctx, p.UserID); err != nil {
			return step, domain.Op("App.NextStep", err)
		}
		step = StudyStep{Phase: p.Phase}
	}
	switch p.Phase {
	case studies.PhaseWork:
		if _, err := a.Studies().Deal(ctx, st, p); err != nil {
			return step, domain.Op("App.NextStep", err)
		}
		q, err := a.work.Queue(ctx, st.ProjectID, p.UserID)
		if err != nil {
			return step, domain.Op("App.NextStep", err)
		}
		for _, as := range q {
			if as.RoundID == st.RoundID && as.Status != domain.StatusSubmitted && as.Status != domain.StatusReleased {
				step.Assignment = as.ID
				return step, nil
			}
		}
		if err := a.judgeParticipant(ctx, st, p); err != nil {
			return step, domain.Op("App.NextStep", err)
		}
		if len(st.Definition.Survey) > 0 {
			step.Phase = studies.PhaseSurvey
			return step, domain.Op("App.NextStep", a.Studies().SetPhase(ctx, p.ID, studies.PhaseSurvey))
		}
		if err := a.Studies().SetPhase(ctx, p.ID, studies.PhaseCompleted); err != nil {
			return step, domain.Op("App.NextStep", err)
		}
		step.Phase = studies.PhaseCompleted
		fallthrough
	case studies.PhaseCompleted:
		step.Code = st.Definition.Completion.Completed
	case studies.PhaseNoConsent:
		step.Code = st.Definition.Completion.NoConsent
	case studies.PhaseScreenedOut:
		step.Code = st.Definition.Completion.ScreenedOut
	}
	if step.Code != "" {
		step.Return = study.ReturnTo(p.Refs, step.Code)
	}
	return step, nil
}

// TimeOver says whether a participant's time limit (from their first
// entry) has passed; never when the study sets none.
func (a *App) TimeOver(st *studies.Study, p *studies.Participant) bool {
	limit := st.Definition.TimeLimit.Duration
	if limit <= 0 {
		return false
	}
	entered, err := time.Parse(time.RFC3339Nano, p.EnteredAt)
	return err == nil && a.now().Sub(entered) > limit
}

// endIfTimeOver ends the work of a participant whose time is over: their
// unfinished items go back to be dealt to others, the work they submitted
// is judged by the exclusion rule like anyone's, and they go on to the
// exit survey, or to the completion code. A participant who has not
// consented yet, or whose study has ended for them, is left alone.
func (a *App) endIfTimeOver(ctx context.Context, st *studies.Study, p *studies.Participant) error {
	switch p.Phase {
	case studies.PhaseInstructions, studies.PhaseScreening, studies.PhaseTraining, studies.PhaseWork:
	default:
		return nil
	}
	if !a.TimeOver(st, p) {
		return nil
	}
	if err := a.Studies().TimeOut(ctx, st, p); err != nil {
		return err
	}
	if p.Phase == studies.PhaseWork {
		if err := a.judgeParticipant(ctx, st, p); err != nil {
			return err
		}
	}
	next := studies.PhaseCompleted
	if len(st.Definition.Survey) > 0 {
		next = studies.PhaseSurvey
	}
	if err := a.Studies().SetPhase(ctx, p.ID, next); err != nil {
		return err
	}
	p.Phase, p.TimedOut = next, true
	return nil
}

// ParticipantTimeOver says whether the account is a study participant
// whose time limit has passed: their labels can no longer change. It
// costs nothing for accounts that are not participants.
func (a *App) ParticipantTimeOver(ctx context.Context, u *domain.User) bool {
	if u == nil || !strings.HasPrefix(u.Username, participantPrefix) {
		return false
	}
	p, err := a.Studies().ParticipantOfUser(ctx, u.ID)
	if err != nil {
		return false
	}
	st, err := a.Studies().ByID(ctx, p.StudyID)
	return err == nil && (p.TimedOut || a.TimeOver(st, p))
}

// StudyAnswer moves a participant on from consent (accept or decline) or
// from the instructions (start).
func (a *App) StudyAnswer(ctx context.Context, p *studies.Participant, answer string) error {
	next := ""
	switch {
	case p.Phase == studies.PhaseConsent && answer == "accept":
		next = studies.PhaseInstructions
	case p.Phase == studies.PhaseConsent && answer == "decline":
		next = studies.PhaseNoConsent
	case p.Phase == studies.PhaseInstructions && answer == "start":
		st, err := a.Studies().ByID(ctx, p.StudyID)
		if err != nil {
			return domain.Op("App.StudyAnswer", err)
		}
		next = afterScreening(st)
		if st.Definition.Screening != nil {
			next = studies.PhaseScreening
		}
	case p.Phase == studies.PhaseTraining && answer == "next":
		training, err := a.Studies().Training(ctx, p.ID)
		if err != nil {
			return domain.Op("App.StudyAnswer", err)
		}
		for _, c := range training {
			if c.Submitted && c.Passed == nil {
				right, err := a.matchesGold(ctx, c)
				if err != nil {
					return domain.Op("App.StudyAnswer", err)
				}
				return domain.Op("App.StudyAnswer", a.Studies().SetCheck(ctx, c.AssignmentID, right))
			}
		}
		return nil
	default:
		return domain.Errorf(domain.EConflict, "that answer does not fit this step of the study; reload the page")
	}
	return domain.Op("App.StudyAnswer", a.Studies().SetPhase(ctx, p.ID, next))
}

func randomUint64() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) | 1
}

// StudyLinks are a study's entry links for each platform, made from the
// server's public address (never from a request).
type StudyLinks struct {
	// Prolific is the study URL to paste into Prolific, with its
	// placeholders for the participant, study and session ids.
	Prolific string
	// MTurk is the external question's URL; MTurk adds workerId,
	// assignmentId, hitId and turkSubmitTo.
	MTurk string
	// Other is a link for any other source: each participant's id goes
	// in pid.
	Other string
}

// Links returns a study's entry links on the server at base (such as
// https://annotate.example.org).
func Links(base string, st *studies.Study) StudyLinks {
	u := strings.TrimRight(base, "/") + "/s/" + url.PathEscape(st.EntryToken)
	return StudyLinks{
		Prolific: u + "?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}",
		MTurk:    u,
		Other:    u + "?pid=",
	}
}

// StudyCounts counts a study's participants by phase.
func (a *App) StudyCounts(ctx context.Context, st *studies.Study) (map[string]int, error) {
	val, err := a.Studies().PhaseCounts(ctx, st.ID)
	return val, domain.Op("App.StudyCounts", err)
}

// SetStudyEntry opens or closes a study's entry link; newLink also
// replaces the link, so the old one leads nowhere (participants who
// entered keep their work and come back by the new one).
func (a *App) SetStudyEntry(ctx context.Context, st *studies.Study, open, newLink bool) error {
	token := st.EntryToken
	if newLink {
		token = rand.Text()
	}
	return domain.Op("App.SetStudyEntry", a.Studies().SetEntry(ctx, st.ID, token, open))
}

// judgeParticipant scores a participant's attention checks (a check is
// passed when every sentence's label is its gold label) and applies the
// study's exclusion rule to their quality figures. An excluded
// participant's labels are kept but count nowhere, and their items go
// back to be dealt to others; they still get their completion code: no
// page tells them.
func (a *App) judgeParticipant(ctx context.Context, st *studies.Study, p *studies.Participant) error {
	checks, err := a.Studies().Checks(ctx, p.ID)
	if err != nil {
		return err
	}
	isCheck := map[int64]bool{}
	screening, err := a.Studies().Screening(ctx, p.ID)
	if err != nil {
		return err
	}
	training, err := a.Studies().Training(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, c := range append(screening, training...) {
		isCheck[c.AssignmentID] = true
	}
	for _, c := range checks {
		isCheck[c.AssignmentID] = true
		if !c.Submitted || c.Passed != nil {
			continue
		}
		passed, err := a.matchesGold(ctx, c)
		if err != nil {
			return err
		}
		if err := a.Studies().SetCheck(ctx, c.AssignmentID, passed); err != nil {
			return err
		}
	}
	if checks, err = a.Studies().Checks(ctx, p.ID); err != nil {
		return err
	}
	var answers []study.Answer
	for _, c := range checks {
		if c.Passed != nil {
			answers = append(answers, study.Answer{Check: true, Right: *c.Passed, Seconds: math.NaN()})
		}
	}
	q, err := a.work.Queue(ctx, st.ProjectID, p.UserID)
	if err != nil {
		return err
	}
	for _, as := range q {
		if as.RoundID != st.RoundID || isCheck[as.ID] || as.Status != domain.StatusSubmitted {
			continue
		}
		labels, err := a.work.SentenceLabels(ctx, as.ID)
		if err != nil {
			return err
		}
		secs := math.NaN()
		if len(labels) > 0 && as.ActiveSeconds > 0 {
			secs = float64(as.ActiveSeconds) / float64(len(labels))
		}
		for _, l := range labels {
			answers = append(answers, study.Answer{Label: l.Label, Seconds: secs})
		}
	}
	rule, err := study.ParseRule(st.Definition.Exclude)
	if err != nil {
		return err
	}
	// The screening score: the share of the test's summaries right (NaN
	// for a study without a test), for rules such as screening_below.
	score := math.NaN()
	if len(screening) > 0 {
		right := 0
		for _, c := range screening {
			if c.Passed != nil && *c.Passed {
				right++
			}
		}
		score = float64(right) / float64(len(screening))
	}
	why := rule.Excludes(study.Assess(answers, score, st.Definition.TooFastSeconds))
	if len(why) == 0 {
		return nil
	}
	return a.Studies().Exclude(ctx, st, p, "by the study's rule: "+strings.Join(why, "; "), 0)
}

// screeningStep deals a participant their screening test, returns the
// next of its summaries to label, or, once all are submitted, scores it
// (a summary is right when every sentence's label is its gold label): at
// or above the study's pass share the participant goes on to the work;
// below it they are screened out, with no item dealt and the test's
// labels counted nowhere. It returns 0 once the participant has moved on.
func (a *App) screeningStep(ctx context.Context, st *studies.Study, p *studies.Participant) (int64, error) {
	sc := st.Definition.Screening
	test, err := a.Studies().DealScreening(ctx, st, p, sc.Items)
	if err != nil {
		return 0, err
	}
	right := 0
	for _, c := range test {
		if !c.Submitted {
			return c.AssignmentID, nil
		}
		ok, err := a.matchesGold(ctx, c)
		if err != nil {
			return 0, err
		}
		if c.Passed == nil {
			if err := a.Studies().SetCheck(ctx, c.AssignmentID, ok); err != nil {
				return 0, err
			}
		}
		if ok {
			right++
		}
	}
	if sc.Passed(right, len(test)) {
		return 0, a.Studies().SetPhase(ctx, p.ID, afterScreening(st))
	}
	if err := a.Studies().ReleaseAll(ctx, st, p); err != nil {
		return 0, err
	}
	return 0, a.Studies().SetPhase(ctx, p.ID, studies.PhaseScreenedOut)
}

// matchesGold says whether every sentence of a check's summary got its
// gold label.
func (a *App) matchesGold(ctx context.Context, c studies.CheckResult) (bool, error) {
	gold, err := a.work.SummaryGold(ctx, c.SummaryID)
	if err != nil {
		return false, err
	}
	labels, err := a.work.SentenceLabels(ctx, c.AssignmentID)
	if err != nil {
		return false, err
	}
	ok := len(gold) > 0
	for sid, g := range gold {
		if labels[sid].Label != g.Label {
			ok = false
		}
	}
	return ok, nil
}

// SetExcluded excludes a study's participant by hand, or includes one
// again, with the reason, kept in the participant's history with the lead
// who decided. number is the participant's number as pages show it
// (Participant N).
func (a *App) SetExcluded(ctx context.Context, st *studies.Study, number int, exclude bool, reason string, by int64) error {
	reason = strings.TrimSpace(reason)
	if reason == "" || len(reason) > 1000 {
		return &Invalid{Fields: []FieldError{{"reason", "say why, in 1 to 1000 characters"}}}
	}
	if err := domain.CheckText("reason", reason, 1000, false); err != nil {
		return &Invalid{Fields: []FieldError{{"reason", domain.ErrorMessage(err)}}}
	}
	ps, err := a.Studies().Participants(ctx, st.ID)
	if err != nil {
		return domain.Op("App.SetExcluded", err)
	}
	if number < 1 || number > len(ps) {
		return domain.Errorf(domain.ENotFound, "the study has no participant %d", number)
	}
	p := &ps[number-1]
	switch {
	case exclude && p.Excluded, !exclude && !p.Excluded:
		return domain.Errorf(domain.EConflict, "participant %d is already %s", number, map[bool]string{true: "excluded", false: "included"}[exclude])
	case exclude:
		return domain.Op("App.SetExcluded", a.Studies().Exclude(ctx, st, p, "by hand: "+reason, by))
	}
	return domain.Op("App.SetExcluded", a.Studies().Include(ctx, p, reason, by))
}

// AnswerSurvey checks and stores a participant's exit survey answers,
// which end their study: each required question answered, a scale's
// answer a whole number in its range, free text at most 2,000 characters.
// Refusals are *Invalid naming each question at fault.
func (a *App) AnswerSurvey(ctx context.Context, st *studies.Study, p *studies.Participant, form map[string]string) error {
	if p.Phase != studies.PhaseSurvey {
		return domain.Errorf(domain.EConflict, "the survey is not open at this step of the study; reload the page")
	}
	var c check
	answers := map[string]string{}
	for _, q := range st.Definition.Survey {
		v := strings.TrimSpace(form[q.Name])
		switch {
		case v == "" && q.Required:
			c.add(q.Name, "an answer is needed")
		case v == "":
		case q.Kind == "scale":
			n, err := strconv.Atoi(v)
			if err != nil || n < q.Min || n > q.Max {
				c.add(q.Name, fmt.Sprintf("choose a whole number from %d to %d", q.Min, q.Max))
			} else {
				answers[q.Name] = v
			}
		default:
			if err := domain.CheckText(q.Name, v, 2000, true); err != nil {
				c.add(q.Name, domain.ErrorMessage(err))
			} else {
				answers[q.Name] = v
			}
		}
	}
	if err := c.err(); err != nil {
		return domain.Op("App.AnswerSurvey", err)
	}
	return domain.Op("App.AnswerSurvey", a.Studies().SaveAnswers(ctx, p, answers))
}

// afterScreening is the phase that follows the screening test (or the
// instructions when there is none): training when the study has it.
func afterScreening(st *studies.Study) string {
	if st.Definition.Training != nil && st.Definition.Training.Items > 0 {
		return studies.PhaseTraining
	}
	return studies.PhaseWork
}

// trainingStep deals a participant their training items and says what is
// next: an item to label, the feedback on the one just submitted, or,
// once every item's feedback is read, the work (the phase moves on).
func (a *App) trainingStep(ctx context.Context, st *studies.Study, p *studies.Participant) (StudyStep, error) {
	step := StudyStep{Phase: studies.PhaseTraining}
	items, err := a.Studies().DealTraining(ctx, st, p, st.Definition.Training.Items)
	if err != nil {
		return step, err
	}
	for _, c := range items {
		switch {
		case !c.Submitted:
			step.Assignment = c.AssignmentID
			return step, nil
		case c.Passed == nil:
			step.Feedback, err = a.feedbackOf(ctx, c)
			return step, err
		}
	}
	if err := a.Studies().SetPhase(ctx, p.ID, studies.PhaseWork); err != nil {
		return step, err
	}
	step.Phase = studies.PhaseWork
	return step, nil
}

// feedbackOf is a training item's feedback: each sentence's label and gold.
func (a *App) feedbackOf(ctx context.Context, c studies.CheckResult) ([]FeedbackSentence, error) {
	sum, err := a.work.Summary(ctx, c.SummaryID)
	if err != nil {
		return nil, err
	}
	gold, err := a.work.SummaryGold(ctx, c.SummaryID)
	if err != nil {
		return nil, err
	}
	labels, err := a.work.SentenceLabels(ctx, c.AssignmentID)
	if err != nil {
		return nil, err
	}
	var out []FeedbackSentence
	for _, x := range sum.Sentences {
		g := gold[x.ID]
		l := labels[x.ID]
		out = append(out, FeedbackSentence{Text: x.Text, Label: l.Label, Gold: g.Label, Explanation: g.Explanation, ErrorTypes: g.ErrorTypes,
			Right: l.Label == g.Label})
	}
	return out, nil
}

// participantPrefix starts the account name of every study participant.
const participantPrefix = "p-"

// IsParticipant says whether an account is a study's participant. Only
// accounts named like participants are looked up, so that the check costs
// nothing for everyone else on the pages that make it.
func (a *App) IsParticipant(ctx context.Context, u *domain.User) bool {
	if u == nil || !strings.HasPrefix(u.Username, participantPrefix) {
		return false
	}
	_, err := a.Studies().ParticipantOfUser(ctx, u.ID)
	return err == nil
}
