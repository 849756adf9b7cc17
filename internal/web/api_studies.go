package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/experiment"
	"annotate/internal/studies"
)

// apiStudyDoc is a study as the API gives it: never its participants'
// platform ids.
type apiStudyDoc struct {
	Name       string          `json:"name"`
	Round      string          `json:"round"`
	Open       bool            `json:"open"`
	Items      int             `json:"items"`
	CreatedAt  string          `json:"created_at"`
	Definition json.RawMessage `json:"definition"`
	// Links are the entry links, from the server's public address; absent
	// when none is configured.
	Links *apiStudyLinks `json:"links,omitempty"`
	// Participants counts them by step.
	Participants map[string]int `json:"participants"`
}

type apiStudyLinks struct {
	Prolific string `json:"prolific"`
	MTurk    string `json:"mturk"`
	Other    string `json:"other"`
}

// apiStudySpec is the body of a new study.
type apiStudySpec struct {
	Name       string          `json:"name"`
	Definition json.RawMessage `json:"definition"`
}

func (s *Server) studyDoc(c echo.Context, st *studies.Study) (apiStudyDoc, error) {
	def, err := json.Marshal(st.Definition)
	if err != nil {
		return apiStudyDoc{}, err
	}
	d := apiStudyDoc{Name: st.Name, Round: st.RoundName, Open: st.Open, Items: st.Items, CreatedAt: st.CreatedAt, Definition: def,
		Participants: map[string]int{}}
	if base, ok := s.absoluteURL(""); ok {
		l := app.Links(base, st)
		d.Links = &apiStudyLinks{Prolific: l.Prolific, MTurk: l.MTurk, Other: l.Other}
	}
	counts, err := s.app.StudyCounts(c.Request().Context(), st)
	if err != nil {
		return d, err
	}
	for _, ph := range studies.Phases {
		d.Participants[ph] = counts[ph]
	}
	return d, nil
}

// apiStudies lists a project's studies. Leads only.
func (s *Server) apiStudies(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	list, err := s.app.Studies().List(c.Request().Context(), a.project.ID)
	if err != nil {
		return err
	}
	out := make([]apiStudyDoc, 0, len(list))
	for i := range list {
		d, err := s.studyDoc(c, &list[i])
		if err != nil {
			return err
		}
		out = append(out, d)
	}
	return c.JSON(http.StatusOK, out)
}

// apiStudy is one study. Leads only.
func (s *Server) apiStudy(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	st, err := s.app.Studies().ByName(c.Request().Context(), a.project.ID, c.Param("name"))
	if err != nil {
		return err
	}
	d, err := s.studyDoc(c, st)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// apiCreateStudy makes a study from a definition, as the Studies page and
// `annotate study create` do. Leads only.
func (s *Server) apiCreateStudy(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	var in apiStudySpec
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	st, err := s.app.CreateStudy(c.Request().Context(), a.project, in.Name, in.Definition)
	if inv, ok := app.AsInvalid(err); ok {
		p := problemf(http.StatusUnprocessableEntity, "invalid-study", "The study was not made.")
		for _, f := range inv.Fields {
			p.Errors = append(p.Errors, FieldError{Field: f.Field, Message: f.Message})
		}
		return p
	}
	if err != nil {
		return err
	}
	d, err := s.studyDoc(c, st)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"/projects/"+a.project.Slug+"/studies/"+url.PathEscape(st.Name))
	return c.JSON(http.StatusCreated, d)
}

// apiStudyReport is a study's experiment report, as `annotate study
// report --format json` gives it. Leads only. ?replicates (100–5,000,
// default 1,000) sets the bootstrap's replicates and the permutations.
func (s *Server) apiStudyReport(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	n := reportReplicates
	if v := c.QueryParam("replicates"); v != "" {
		if n, err = strconv.Atoi(v); err != nil || n < 100 || n > 5000 {
			return problemf(http.StatusBadRequest, "invalid-replicates", "replicates: give a whole number from 100 to 5000.")
		}
	}
	ctx := c.Request().Context()
	st, err := s.app.Studies().ByName(ctx, a.project.ID, c.Param("name"))
	if err != nil {
		return err
	}
	rep, err := s.app.ReportStudy(ctx, st, experiment.Options{Replicates: n, Permutations: n})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
