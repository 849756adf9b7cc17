package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/redact"
	"annotate/web/templates"
)

// The assistant page: leads list, start, watch, cancel and resume runs and
// see how each run fares against gold. Every handler checks that the user
// leads the project; model names appear on these pages only.

func assistURL(slug string) string { return "/p/" + slug + "/assist" }

func (s *Server) assistRunsView(c echo.Context, p *domain.Project) (templates.AssistRunsView, error) {
	ctx := c.Request().Context()
	v := templates.AssistRunsView{
		Page: s.page(c, "Assistant", s.projectCrumbs(p)...), Slug: p.Slug,
		CanStart: s.cfg.Assist != nil, Errors: map[string]string{},
		Form: templates.RunForm{Protocol: "single"},
	}
	if s.cfg.Assist != nil {
		v.Form.Model = s.cfg.Assist.DefaultModel()
	}
	n, err := s.store.SentenceCount(ctx, p.ID)
	if err != nil {
		return v, err
	}
	v.Sentences = n
	runs, err := s.assists.AssistRuns(ctx, p.ID)
	if err != nil {
		return v, err
	}
	// Read before the evaluations: one computed after a write is kept
	// for the version before it, which no later view asks for.
	version, err := s.store.EvalVersion(ctx, p.ID)
	if err != nil {
		return v, err
	}
	for i := range runs {
		r := &runs[i]
		v.Runs = append(v.Runs, s.runRow(p, r))
		if r.Outputs == 0 {
			continue
		}
		e, err := s.evals.get(r.ID, version, func() (assiststore.AssistEval, error) { return s.assists.EvalAssistRun(ctx, r.ID) })
		if err != nil {
			return v, err
		}
		v.Evals = append(v.Evals, evalRow(r, e))
	}
	return v, nil
}

// runRow shows a stored run, with the live progress when this server is
// executing it.
func (s *Server) runRow(p *domain.Project, r *assiststore.AssistRun) templates.RunRow {
	row := templates.RunRow{
		Slug: p.Slug, ID: r.ID, Title: r.Title(), Protocol: r.Protocol, Model: r.Model, Status: r.Status, Sample: r.Sample,
		Done: r.Outputs, Total: r.Total, Failed: r.Failed,
		Calls: r.Usage.Calls, CacheHits: r.Usage.CacheHits, PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens,
		Created: shortTime(r.CreatedAt), Error: redact.Text(r.Error),
	}
	if prog, ok := s.runs.progress(r.ID); ok {
		row.Live = true
		row.Status = assiststore.RunRunning
		// Saved outputs include those of earlier stretches of a resumed
		// run; the live count covers this stretch and skips the rest.
		row.Done = max(row.Done, prog.Done)
		row.Failed = max(row.Failed, prog.Failed)
	}
	row.CanCancel = row.Live || r.Active()
	row.CanResume = !row.Live && r.Resumable() && s.cfg.Assist != nil
	return row
}

// shortTime trims a stored timestamp to the minute.
func shortTime(ts string) string {
	ts = strings.Replace(ts, "T", " ", 1)
	if len(ts) > 16 {
		ts = ts[:16]
	}
	return ts
}

func evalRow(r *assiststore.AssistRun, e assiststore.AssistEval) templates.EvalRow {
	row := templates.EvalRow{ID: r.ID, Title: r.Title(), Protocol: r.Protocol, Model: r.Model, Sample: r.Sample, N: e.N}
	if r.Sample {
		row.Notes = append(row.Notes, "Sample output was made without a model, by a word-overlap rule (not from gold): its scores say nothing about any model.")
	}
	if e.RatesUndefined != "" {
		row.BAcc, row.FPR, row.FNR = "undefined", "undefined", "undefined"
		row.Notes = append(row.Notes, "Rates undefined: "+e.RatesUndefined+".")
	} else {
		row.BAcc, row.FPR, row.FNR = fmt.Sprintf("%.3f", e.BalancedAccuracy), fmt.Sprintf("%.3f", e.FPR), fmt.Sprintf("%.3f", e.FNR)
	}
	if e.AlphaUndefined != "" {
		row.Alpha = "undefined"
		row.Notes = append(row.Notes, "α undefined: "+e.AlphaUndefined+".")
	} else {
		row.Alpha = fmt.Sprintf("%.3f", e.Alpha)
	}
	return row
}

func (s *Server) getAssist(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	v, err := s.assistRunsView(c, a.project)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.AssistRunsPage(v))
}

// runForm is the start-a-run form; Validate fills field messages.
type runForm struct {
	Protocol string
	Model    string
}

// Validate checks the protocol and the model name.
func (f runForm) Validate() map[string]string {
	errs := map[string]string{}
	if f.Protocol != "single" && f.Protocol != "debate" {
		errs["protocol"] = "Choose the single-round or the debate protocol."
	}
	if strings.TrimSpace(f.Model) == "" {
		errs["model"] = "Name the model to ask."
	} else if len(f.Model) > 200 {
		errs["model"] = "The model name is too long."
	}
	return errs
}

func (s *Server) postAssistRun(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	f := runForm{Protocol: c.FormValue("protocol"), Model: strings.TrimSpace(c.FormValue("model"))}
	errs := f.Validate()
	if s.cfg.Assist == nil {
		errs["run"] = "This server has no model endpoint; start runs with annotate assist run."
	}
	if len(errs) == 0 {
		r, err := s.cfg.Assist.Create(c.Request().Context(), a.project.ID, f.Protocol, f.Model)
		if err == nil {
			err = s.runs.start(r.ID)
		}
		switch {
		case err == nil:
			if err := s.setFlash(c, "ok", fmt.Sprintf("Run %d started.", r.ID)); err != nil {
				return err
			}
			return redirect(c, assistURL(a.project.Slug))
		case domain.ErrorCode(err) == domain.EInvalid || domain.ErrorCode(err) == domain.EConflict:
			errs["run"] = domain.ErrorMessage(err)
		default:
			return err
		}
	}
	v, err := s.assistRunsView(c, a.project)
	if err != nil {
		return err
	}
	v.Errors, v.Form = errs, templates.RunForm{Protocol: f.Protocol, Model: f.Model}
	return s.render(c, http.StatusUnprocessableEntity, templates.AssistRunsPage(v))
}

// runAccess loads the run named in the URL for a lead of its project.
func (s *Server) runAccess(c echo.Context) (access, *assiststore.AssistRun, error) {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return a, nil, err
	}
	id, err := strconv.ParseInt(c.Param("rid"), 10, 64)
	if err != nil {
		return a, nil, domain.Errorf(domain.ENotFound, "run not found")
	}
	r, err := s.assists.AssistRunByID(c.Request().Context(), id)
	if err != nil {
		return a, nil, err
	}
	if r.ProjectID != a.project.ID {
		return a, nil, domain.Errorf(domain.ENotFound, "run not found")
	}
	return a, r, nil
}

// getRunRow is the row htmx polls while a run is live.
func (s *Server) getRunRow(c echo.Context) error {
	a, r, err := s.runAccess(c)
	if err != nil {
		return err
	}
	csrf := s.csrfToken(c)
	return s.render(c, http.StatusOK, templates.RunRowFragment(s.runRow(a.project, r), csrf))
}

func (s *Server) postCancelRun(c echo.Context) error {
	a, r, err := s.runAccess(c)
	if err != nil {
		return err
	}
	msg := "Run %d cancelled; its finished sentences are kept."
	if !s.runs.cancel(r.ID) {
		if !r.Active() {
			return domain.Errorf(domain.EConflict, "run %d is not running", r.ID)
		}
		// No process here is working on it (a command-line run, or one
		// left by a crash): just record the cancellation.
		if err := s.assists.CancelAssistRun(c.Request().Context(), r.ID); err != nil {
			return err
		}
		msg = "Run %d marked cancelled. A command-line run goes on until it is stopped there."
	}
	if err := s.setFlash(c, "ok", fmt.Sprintf(msg, r.ID)); err != nil {
		return err
	}
	return redirect(c, assistURL(a.project.Slug))
}

func (s *Server) postResumeRun(c echo.Context) error {
	a, r, err := s.runAccess(c)
	if err != nil {
		return err
	}
	if !r.Resumable() {
		return domain.Errorf(domain.EConflict, "run %d is %s and cannot be resumed", r.ID, r.Status)
	}
	if err := s.runs.start(r.ID); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", fmt.Sprintf("Run %d resumed; finished sentences are skipped.", r.ID)); err != nil {
		return err
	}
	return redirect(c, assistURL(a.project.Slug))
}
