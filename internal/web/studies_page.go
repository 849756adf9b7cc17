package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/studies"
	"annotate/web/templates"
)

// maxDefinition bounds a study definition sent by the form.
const maxDefinition = 256 << 10

// getStudies lists a project's studies, for its leads.
func (s *Server) getStudies(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	v, err := s.studiesView(c, a.project)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.StudiesPage(v))
}

// exampleDefinition fills the new-study form at first.
const exampleDefinition = `{"round": "crowd", "conditions": ["none", "debate"], "k": 3, "items_per_participant": 10}`

// maxPlanForm bounds the plan a form sends.
const maxPlanForm = 64 << 10

// examplePlan and examplePlanSizes fill the planning form at first.
const (
	examplePlan      = `{"accuracy": {"none": 0.75, "verdict": 0.8, "debate": 0.88}, "follow_when_visible": 0.4, "items_per_participant": 10, "k": 3, "seed": 1}`
	examplePlanSizes = "20, 40, 60, 100, 150"
)

// pageStudies is how many studies the page simulates per number of
// participants (the command line's study plan takes 200 by default).
const pageStudies = 40

// postStudyPlan estimates a plan's power with several numbers of
// participants (app.PlanStudy) and shows it on the Studies page.
func (s *Server) postStudyPlan(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	v, err := s.studiesView(c, a.project)
	if err != nil {
		return err
	}
	v.Plan, v.PlanSizes, v.PlanStudies = c.FormValue("plan"), c.FormValue("participants"), pageStudies
	fail := func(msg string) error {
		v.PlanErrors = append(v.PlanErrors, msg)
		return s.render(c, http.StatusUnprocessableEntity, templates.StudiesPage(v))
	}
	if len(v.Plan) > maxPlanForm {
		return fail("plan: longer than the form takes")
	}
	plan, err := app.ReadPlanForPower([]byte(v.Plan))
	if err != nil {
		return fail(err.Error())
	}
	sizes, err := app.ParsePlanSizes(v.PlanSizes)
	if err != nil {
		return fail(err.Error())
	}
	rows, err := app.PlanStudy(c.Request().Context(), plan, sizes, pageStudies)
	if in, ok := app.AsInvalid(err); ok {
		for _, f := range in.Fields {
			v.PlanErrors = append(v.PlanErrors, f.Field+": "+f.Message)
		}
		return s.render(c, http.StatusUnprocessableEntity, templates.StudiesPage(v))
	}
	if err != nil {
		return err
	}
	for _, r := range rows {
		if v.PlanConditions == nil {
			for _, p := range r.Power {
				v.PlanConditions = append(v.PlanConditions, p.Condition)
			}
		}
		cells := []string{strconv.Itoa(r.Participants)}
		for _, p := range r.Power {
			cells = append(cells, fmt.Sprintf("%.2f", p.Power))
		}
		v.PlanRows = append(v.PlanRows, cells)
	}
	return s.render(c, http.StatusOK, templates.StudiesPage(v))
}

func (s *Server) studiesView(c echo.Context, p *domain.Project) (templates.StudiesView, error) {
	v := templates.StudiesView{Page: s.page(c, "Studies", s.projectCrumbs(p)...), Slug: p.Slug,
		Definition: exampleDefinition, Plan: examplePlan, PlanSizes: examplePlanSizes}
	ctx := c.Request().Context()
	list, err := s.app.Studies().List(ctx, p.ID)
	if err != nil {
		return v, err
	}
	all, err := s.app.Studies().ProjectPhaseCounts(ctx, p.ID)
	if err != nil {
		return v, err
	}
	for i := range list {
		st := &list[i]
		counts := all[st.ID]
		n := 0
		for _, k := range counts {
			n += k
		}
		v.Studies = append(v.Studies, templates.StudyRow{Name: st.Name, Round: st.RoundName, Href: studyURL(p.Slug, st.Name), Open: st.Open,
			Items: st.Items, Participants: n, Completed: counts[studies.PhaseCompleted]})
	}
	return v, nil
}

func studyURL(slug, name string) string { return "/p/" + slug + "/studies/" + url.PathEscape(name) }

// postStudies makes a study from the form's definition.
func (s *Server) postStudies(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	name, def := c.FormValue("name"), c.FormValue("definition")
	var st *studies.Study
	if len(def) > maxDefinition {
		err = &app.Invalid{Fields: []app.FieldError{{Field: "definition", Message: fmt.Sprintf("longer than %d KiB", maxDefinition>>10)}}}
	} else {
		// The same operation as `annotate study create` and the API.
		st, err = s.app.CreateStudy(c.Request().Context(), a.project, name, []byte(def))
	}
	if err != nil {
		var msgs []string
		if in, ok := app.AsInvalid(err); ok {
			for _, f := range in.Fields {
				msgs = append(msgs, strings.Split(f.Message, "\n")...)
			}
		} else if code := domain.ErrorCode(err); code == domain.EConflict || code == domain.EInvalid {
			msgs = append(msgs, domain.ErrorMessage(err))
		} else {
			return err
		}
		v, verr := s.studiesView(c, a.project)
		if verr != nil {
			return verr
		}
		v.Name, v.Definition, v.Errors = name, def, msgs
		return s.render(c, http.StatusUnprocessableEntity, templates.StudiesPage(v))
	}
	if err := s.setFlash(c, "ok", "Study "+st.Name+" made."); err != nil {
		return err
	}
	return redirect(c, studyURL(a.project.Slug, st.Name))
}

// getStudyDetail shows one study: settings, links and participants, each
// named by their number, never by their platform id.
func (s *Server) getStudyDetail(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	st, err := s.app.Studies().ByName(ctx, a.project.ID, c.Param("name"))
	if err != nil {
		return err
	}
	d := st.Definition
	v := templates.StudyDetailView{
		Page:   s.page(c, "Study "+st.Name, append(s.projectCrumbs(a.project), templates.Link{Label: "Studies", Href: "/p/" + a.project.Slug + "/studies"})...),
		Action: studyURL(a.project.Slug, st.Name) + "/entry", ReportHref: studyURL(a.project.Slug, st.Name) + "/report",
		Name: st.Name, Round: st.RoundName, Open: st.Open, Items: st.Items, K: d.K, PerPerson: d.ItemsPerParticipant,
		Conditions: strings.Join(d.Conditions, ", "), Randomise: d.Randomise, Checks: st.Checks, Exclude: d.Exclude,
		Codes: [3]string{d.Completion.Completed, d.Completion.NoConsent, d.Completion.ScreenedOut},
	}
	if d.TimeLimit.Duration > 0 {
		v.TimeLimit = fmt.Sprintf("%s per participant from their first entry; then their unfinished summaries go back to be dealt to others, and they finish with the completion code", d.TimeLimit.Duration)
	}
	if sc := d.Screening; sc != nil {
		v.Screening = fmt.Sprintf("%d summaries with gold, passed at %.0f%% right; those below are screened out", sc.Items, 100*sc.Pass)
	}
	if d.AttentionRate != nil {
		v.Rate = fmt.Sprintf("%.0f%%", 100*(*d.AttentionRate))
	}
	if base, ok := s.absoluteURL(""); ok {
		l := app.Links(base, st)
		v.Links = [3]string{l.Prolific, l.MTurk, l.Other}
	}
	ps, err := s.app.Studies().Participants(ctx, st.ID)
	if err != nil {
		return err
	}
	prog, err := s.store.RoundProgress(ctx, st.RoundID)
	if err != nil {
		return err
	}
	byUser := map[int64]domain.AnnotatorProgress{}
	for _, p := range prog {
		byUser[p.UserID] = p
	}
	allChecks, err := s.app.Studies().StudyChecks(ctx, st.ID)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, p := range ps {
		counts[p.Phase]++
		pr := byUser[p.UserID]
		cond := p.Condition
		if cond == "" {
			cond = "by item"
		}
		phase := phaseWords[p.Phase]
		if p.TimedOut {
			phase += " (time over)"
		}
		row := templates.ParticipantRow{Name: fmt.Sprintf("Participant %d", p.Number+1), Condition: cond,
			Phase: phase, Entered: p.EnteredAt, Done: pr.Submitted, Dealt: pr.Total, Excluded: p.Why,
			Number: p.Number + 1, Action: fmt.Sprintf("%s/participants/%d", studyURL(a.project.Slug, st.Name), p.Number+1)}
		if p.Excluded {
			// Released at exclusion: their work counts as done.
			row.Done, row.Dealt = pr.Released, pr.Released
		}
		if checks := allChecks[p.ID]; len(checks) > 0 {
			passed, judged := 0, 0
			for _, c := range checks {
				if c.Passed != nil {
					judged++
					if *c.Passed {
						passed++
					}
				}
			}
			row.Checks = fmt.Sprintf("%d of %d passed", passed, judged)
			if judged < len(checks) {
				row.Checks += fmt.Sprintf(" (%d to come)", len(checks)-judged)
			}
		}
		v.Participants = append(v.Participants, row)
	}
	for _, ph := range studies.Phases {
		v.Counts = append(v.Counts, templates.Count{Label: phaseWords[ph], Value: counts[ph]})
	}
	return s.render(c, http.StatusOK, templates.StudyDetailPage(v))
}

// phaseWords names a participant's step on leads' pages.
var phaseWords = map[string]string{
	studies.PhaseConsent:      "reading the consent",
	studies.PhaseInstructions: "reading the instructions",
	studies.PhaseScreening:    "taking the screening test",
	studies.PhaseTraining:     "training",
	studies.PhaseScreenedOut:  "screened out",
	studies.PhaseSurvey:       "answering the survey",
	studies.PhaseWork:         "labelling",
	studies.PhaseCompleted:    "completed",
	studies.PhaseNoConsent:    "declined consent",
}

// postStudyEntry closes, opens or replaces a study's entry link.
func (s *Server) postStudyEntry(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	st, err := s.app.Studies().ByName(ctx, a.project.ID, c.Param("name"))
	if err != nil {
		return err
	}
	var msg string
	switch c.FormValue("entry") {
	case "close":
		err, msg = s.app.SetStudyEntry(ctx, st, false, false), "Entry closed: the link lets nobody in."
	case "open":
		err, msg = s.app.SetStudyEntry(ctx, st, true, false), "Entry open."
	case "new-link":
		err, msg = s.app.SetStudyEntry(ctx, st, st.Open, true), "A new entry link: paste it into the platform; the old one leads nowhere."
	default:
		return domain.Errorf(domain.EInvalid, "entry: want close, open or new-link")
	}
	if err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", msg); err != nil {
		return err
	}
	return redirect(c, studyURL(a.project.Slug, st.Name))
}

// postParticipantDecision excludes a participant by hand, or includes one
// again, with the reason.
func (s *Server) postParticipantDecision(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	st, err := s.app.Studies().ByName(ctx, a.project.ID, c.Param("name"))
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return domain.Errorf(domain.ENotFound, "participant not found")
	}
	exclude := c.FormValue("decision") == "exclude"
	if !exclude && c.FormValue("decision") != "include" {
		return domain.Errorf(domain.EInvalid, "decision: want exclude or include")
	}
	if err := s.app.SetExcluded(ctx, st, n, exclude, c.FormValue("reason"), currentUser(c).ID); err != nil {
		if in, ok := app.AsInvalid(err); ok {
			return domain.Errorf(domain.EInvalid, "%s", in.Fields[0].Message)
		}
		return err
	}
	msg := fmt.Sprintf("Participant %d included again.", n)
	if exclude {
		msg = fmt.Sprintf("Participant %d excluded: their labels count nowhere and their items are dealt again.", n)
	}
	if err := s.setFlash(c, "ok", msg); err != nil {
		return err
	}
	return redirect(c, studyURL(a.project.Slug, st.Name))
}
