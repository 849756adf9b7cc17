package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/studies"
	"annotate/web/templates"
)

// getStudyEntry is a study's public entry link (/s/TOKEN?PROLIFIC_PID=...):
// the participant the link names is made or found and logged in on this
// browser, then sent to their step. An MTurk preview sees the
// instructions only.
func (s *Server) getStudyEntry(c echo.Context) error {
	if !s.entries.allow(c.RealIP()) {
		c.Response().Header().Set("Retry-After", "60")
		return echo.NewHTTPError(http.StatusTooManyRequests, "Too many study entries from your address; wait a minute and open the link again.")
	}
	ctx := c.Request().Context()
	in, err := s.app.EnterStudy(ctx, c.Param("token"), c.QueryParams())
	if err != nil {
		return err
	}
	if in.Participant == nil {
		v := templates.StudyView{Page: s.page(c, in.Project.Name), Title: in.Project.Name, Phase: "preview",
			HTML: renderMarkdown(in.Project.Guidelines), Items: in.Study.Definition.ItemsPerParticipant}
		return s.render(c, http.StatusOK, templates.StudyPage(v))
	}
	if err := s.startSession(c, in.Participant.UserID); err != nil {
		return err
	}
	return redirect(c, "/study")
}

// participantOf returns the logged-in participant and their study.
func (s *Server) participantOf(c echo.Context) (*studies.Participant, *studies.Study, error) {
	ctx := c.Request().Context()
	p, err := s.app.Studies().ParticipantOfUser(ctx, currentUser(c).ID)
	if err != nil {
		return nil, nil, domain.Errorf(domain.ENotFound, "you are not taking part in a study")
	}
	st, err := s.app.Studies().ByID(ctx, p.StudyID)
	return p, st, err
}

// getStudy shows a participant the step they are at, or sends them to
// their next summary.
func (s *Server) getStudy(c echo.Context) error {
	p, st, err := s.participantOf(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	step, err := s.app.NextStep(ctx, st, p)
	if err != nil {
		return err
	}
	if step.Assignment != 0 {
		return redirect(c, assignmentURL(step.Assignment))
	}
	project, err := s.store.ProjectByID(ctx, st.ProjectID)
	if err != nil {
		return err
	}
	v := templates.StudyView{Page: s.page(c, project.Name), Title: project.Name, Phase: step.Phase, Items: st.Definition.ItemsPerParticipant,
		Code: step.Code, ReturnURL: step.Return.URL, TimedOut: step.TimedOut}
	switch step.Phase {
	case studies.PhaseSurvey:
		v.Questions = surveyQuestions(st, nil, nil)
	case studies.PhaseTraining:
		names := errorTypeNames(project.Settings)
		for _, f := range step.Feedback {
			why := f.Explanation
			if len(f.ErrorTypes) > 0 {
				why = strings.TrimSpace(strings.Join(splitNames(f.ErrorTypes, names), ", ") + ". " + why)
			}
			v.Feedback = append(v.Feedback, templates.TrainingFeedback{Text: f.Text, Label: f.Label, Gold: f.Gold, Why: why, Right: f.Right})
		}
	case studies.PhaseConsent:
		v.HTML = renderMarkdown(st.Definition.Consent)
	case studies.PhaseInstructions:
		v.HTML = renderMarkdown(project.Guidelines)
	}
	if step.Return.Form != nil {
		v.ReturnForm = map[string]string{}
		for k := range step.Return.Form {
			v.ReturnForm[k] = step.Return.Form.Get(k)
		}
	}
	return s.render(c, http.StatusOK, templates.StudyPage(v))
}

// postStudy takes a participant's answer to consent (accept, decline) or
// the instructions (start).
func (s *Server) postStudy(c echo.Context) error {
	p, st, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if c.FormValue("answer") == "survey" {
		form := map[string]string{}
		for _, q := range st.Definition.Survey {
			form[q.Name] = c.FormValue("q-" + q.Name)
		}
		err := s.app.AnswerSurvey(c.Request().Context(), st, p, form)
		if in, ok := app.AsInvalid(err); ok {
			project, err := s.store.ProjectByID(c.Request().Context(), st.ProjectID)
			if err != nil {
				return err
			}
			errs := map[string]string{}
			for _, f := range in.Fields {
				errs[f.Field] = f.Message
			}
			v := templates.StudyView{Page: s.page(c, project.Name), Title: project.Name, Phase: studies.PhaseSurvey, Questions: surveyQuestions(st, form, errs)}
			return s.render(c, http.StatusUnprocessableEntity, templates.StudyPage(v))
		}
		if err != nil {
			return err
		}
		return redirect(c, "/study")
	}
	if err := s.app.StudyAnswer(c.Request().Context(), p, c.FormValue("answer")); err != nil {
		return err
	}
	return redirect(c, "/study")
}

// afterSubmit is where a participant goes once a summary is submitted:
// their study's next step; "" for everyone else.
func (s *Server) afterSubmit(c echo.Context) string {
	if s.app.IsParticipant(c.Request().Context(), currentUser(c)) {
		return "/study"
	}
	return ""
}

// surveyQuestions puts a study's exit survey on the page, with the
// answers sent and what was wrong with them.
func surveyQuestions(st *studies.Study, answers, errs map[string]string) []templates.SurveyQuestion {
	var out []templates.SurveyQuestion
	for _, q := range st.Definition.Survey {
		sq := templates.SurveyQuestion{Name: q.Name, Text: q.Text, Required: q.Required, Answer: answers[q.Name], Error: errs[q.Name]}
		if q.Kind == "scale" {
			for n := q.Min; n <= q.Max; n++ {
				sq.Scale = append(sq.Scale, strconv.Itoa(n))
			}
		}
		out = append(out, sq)
	}
	return out
}
