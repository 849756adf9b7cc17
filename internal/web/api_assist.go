package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
)

// apiRunDoc is an assistant run: its status and how far it got.
type apiRunDoc struct {
	ID         int64       `json:"id"`
	Name       string      `json:"name"`
	Protocol   string      `json:"protocol"`
	Model      string      `json:"model"`
	Status     string      `json:"status"`
	Sample     bool        `json:"sample"`
	Total      int         `json:"total"`
	Done       int         `json:"done"`
	Failed     int         `json:"failed"`
	Live       bool        `json:"live"`
	Error      string      `json:"error"`
	CreatedAt  string      `json:"created_at"`
	FinishedAt string      `json:"finished_at"`
	Usage      apiRunUsage `json:"usage"`
}

// apiRunUsage is what a run spent at the model endpoint.
type apiRunUsage struct {
	Calls            int64 `json:"calls"`
	CacheHits        int64 `json:"cache_hits"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	Failures         int64 `json:"failures"`
}

// apiAssistStart is the body that starts a run.
type apiAssistStart struct {
	Protocol string `json:"protocol"`
	Model    string `json:"model"`
}

func (s *Server) runDoc(p *domain.Project, r *assiststore.AssistRun) apiRunDoc {
	row := s.runRow(p, r)
	return apiRunDoc{ID: r.ID, Name: r.Title(), Protocol: r.Protocol, Model: r.Model, Status: row.Status, Sample: r.Sample,
		Total: r.Total, Done: row.Done, Failed: row.Failed, Live: row.Live, Error: r.Error, CreatedAt: r.CreatedAt, FinishedAt: r.FinishedAt,
		Usage: apiRunUsage{Calls: r.Usage.Calls, CacheHits: r.Usage.CacheHits, PromptTokens: r.Usage.PromptTokens,
			CompletionTokens: r.Usage.CompletionTokens, Failures: r.Usage.Failures}}
}

// apiAssistRuns lists a project's assistant runs (leads, as the assistant
// page).
func (s *Server) apiAssistRuns(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	runs, err := s.assists.AssistRuns(c.Request().Context(), a.project.ID)
	if err != nil {
		return err
	}
	page, err := paginate(c, runs, func(r assiststore.AssistRun) int64 { return r.ID })
	if err != nil {
		return err
	}
	out := make([]apiRunDoc, 0, len(page))
	for i := range page {
		out = append(out, s.runDoc(a.project, &page[i]))
	}
	return c.JSON(http.StatusOK, out)
}

// apiStartAssistRun starts a run over every sentence of the project on
// this server's model endpoint; a server without one refuses.
func (s *Server) apiStartAssistRun(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	var in apiAssistStart
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	if s.cfg.Assist == nil {
		return problemf(http.StatusServiceUnavailable, "no-model-endpoint", "This server has no model endpoint; start runs with annotate assist run on the server.")
	}
	if in.Model = strings.TrimSpace(in.Model); in.Model == "" {
		in.Model = s.cfg.Assist.DefaultModel()
	}
	if errs := (runForm{Protocol: in.Protocol, Model: in.Model}).Validate(); len(errs) > 0 {
		p := problemf(http.StatusUnprocessableEntity, "invalid-run", "The run was not started.")
		for _, f := range []string{"protocol", "model"} {
			if m, ok := errs[f]; ok {
				p.Errors = append(p.Errors, FieldError{Field: f, Message: m})
			}
		}
		return p
	}
	ctx := c.Request().Context()
	r, err := s.cfg.Assist.Create(ctx, a.project.ID, in.Protocol, in.Model)
	if err != nil {
		return err
	}
	if err := s.runs.start(r.ID); err != nil {
		return err
	}
	if r, err = s.assists.AssistRunByID(ctx, r.ID); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"/projects/"+a.project.Slug+"/assist/runs/"+strconv.FormatInt(r.ID, 10))
	return c.JSON(http.StatusAccepted, s.runDoc(a.project, r))
}

// apiAssistRun reads a run's status and progress.
func (s *Server) apiAssistRun(c echo.Context) error {
	a, r, err := s.apiRunAccess(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.runDoc(a.project, r))
}

// apiCancelAssistRun stops a run; its finished sentences are kept.
func (s *Server) apiCancelAssistRun(c echo.Context) error {
	a, r, err := s.apiRunAccess(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if !s.runs.cancel(r.ID) {
		if !r.Active() {
			return problemf(http.StatusConflict, "run-not-running", "Run %d is %s, not running.", r.ID, r.Status)
		}
		if err := s.assists.CancelAssistRun(ctx, r.ID); err != nil {
			return err
		}
	}
	if r, err = s.assists.AssistRunByID(ctx, r.ID); err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, s.runDoc(a.project, r))
}

// apiRunAccess loads the run named in the URL for a lead whose token
// reaches its project.
func (s *Server) apiRunAccess(c echo.Context) (access, *assiststore.AssistRun, error) {
	if _, err := s.apiAccess(c, true); err != nil {
		return access{}, nil, err
	}
	return s.runAccess(c)
}
