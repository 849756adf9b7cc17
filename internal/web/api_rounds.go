package web

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// apiRoundDoc is a round with its totals and, when read alone, each
// annotator's progress.
type apiRoundDoc struct {
	ID        int64                  `json:"id"`
	Name      string                 `json:"name"`
	Kind      string                 `json:"kind"`
	PerItem   int                    `json:"per_item"`
	Status    string                 `json:"status"`
	CreatedAt string                 `json:"created_at"`
	Total     int                    `json:"total"`
	Submitted int                    `json:"submitted"`
	Complete  bool                   `json:"complete"`
	Progress  []apiAnnotatorProgress `json:"progress,omitempty"`
}

// apiAnnotatorProgress counts one annotator's assignments by status.
type apiAnnotatorProgress struct {
	Username      string `json:"username"`
	Total         int    `json:"total"`
	Submitted     int    `json:"submitted"`
	InProgress    int    `json:"in_progress"`
	Pending       int    `json:"pending"`
	Released      int    `json:"released"`
	ActiveSeconds int    `json:"active_seconds"`
}

// apiRoundSpec is the body of a new round, with the options of annotate
// assign: calibration (everyone labels everything) or production with
// per_item annotators per summary; annotators by username; all summaries,
// those of some documents, or a reproducible random sample.
type apiRoundSpec struct {
	Name       string   `json:"name"`
	Kind       string   `json:"kind"`
	PerItem    int      `json:"per_item"`
	Annotators []string `json:"annotators"`
	Documents  []string `json:"documents"`
	Sample     int      `json:"sample"`
	Seed       *uint64  `json:"seed"`
}

// maxJSONBody bounds a JSON request body.
const maxJSONBody = 1 << 20

// decodeJSON reads a bounded JSON body into v, refusing unknown fields.
func decodeJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(io.LimitReader(c.Request().Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return problemf(http.StatusBadRequest, "bad-json", "The request body is not the JSON object this route takes: %v", err)
	}
	return nil
}

func (s *Server) roundDoc(c echo.Context, r *domain.Round, withProgress bool) (apiRoundDoc, error) {
	d := apiRoundDoc{ID: r.ID, Name: r.Name, Kind: r.Kind, PerItem: r.PerItem, Status: r.Status, CreatedAt: r.CreatedAt}
	prog, err := s.store.RoundProgress(c.Request().Context(), r.ID)
	if err != nil {
		return d, err
	}
	for _, p := range prog {
		d.Total += p.Total
		d.Submitted += p.Submitted
		if withProgress {
			d.Progress = append(d.Progress, apiAnnotatorProgress{Username: p.Username, Total: p.Total, Submitted: p.Submitted,
				InProgress: p.InProgress, Pending: p.Pending, Released: p.Released, ActiveSeconds: p.ActiveSeconds})
		}
	}
	d.Complete = d.Total > 0 && d.Submitted == d.Total
	if withProgress && d.Progress == nil {
		d.Progress = []apiAnnotatorProgress{}
	}
	return d, nil
}

// apiRounds lists a project's rounds with their totals (leads, as the
// rounds page).
func (s *Server) apiRounds(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	rounds, err := s.store.Rounds(c.Request().Context(), a.project.ID)
	if err != nil {
		return err
	}
	page, err := paginate(c, rounds, func(r domain.Round) int64 { return r.ID })
	if err != nil {
		return err
	}
	out := make([]apiRoundDoc, 0, len(page))
	for i := range page {
		d, err := s.roundDoc(c, &page[i], false)
		if err != nil {
			return err
		}
		out = append(out, d)
	}
	return c.JSON(http.StatusOK, out)
}

// apiCreateRound starts a round and deals out its assignments.
func (s *Server) apiCreateRound(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	var in apiRoundSpec
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	seed := uint64(1)
	if in.Seed != nil {
		seed = *in.Seed
	}
	// The same operation as the Rounds page and `annotate assign`.
	r, err := s.app.StartRound(c.Request().Context(), a.project, app.RoundRequest{Name: in.Name, Kind: in.Kind, PerItem: in.PerItem,
		AnnotatorNames: in.Annotators, Documents: in.Documents, Sample: in.Sample, Seed: seed})
	if in, ok := app.AsInvalid(err); ok {
		p := problemf(http.StatusUnprocessableEntity, "invalid-round", "The round was not created.")
		for _, f := range in.Fields {
			p.Errors = append(p.Errors, FieldError{Field: f.Field, Message: f.Message})
		}
		return p
	}
	if err != nil {
		return err
	}
	d, err := s.roundDoc(c, r, true)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"/projects/"+a.project.Slug+"/rounds/"+strconv.FormatInt(r.ID, 10))
	return c.JSON(http.StatusCreated, d)
}

// apiRound reads a round and each annotator's progress.
func (s *Server) apiRound(c echo.Context) error {
	_, r, err := s.apiRoundAccess(c)
	if err != nil {
		return err
	}
	d, err := s.roundDoc(c, r, true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// apiCloseRound closes a round: its labels can no longer change.
func (s *Server) apiCloseRound(c echo.Context) error {
	_, r, err := s.apiRoundAccess(c)
	if err != nil {
		return err
	}
	if err := s.store.CloseRound(c.Request().Context(), r.ID); err != nil {
		return err
	}
	if r, err = s.store.RoundByID(c.Request().Context(), r.ID); err != nil {
		return err
	}
	d, err := s.roundDoc(c, r, true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// apiRoundAccess loads the round named in the URL for a lead whose token
// reaches its project.
func (s *Server) apiRoundAccess(c echo.Context) (access, *domain.Round, error) {
	if _, err := s.apiAccess(c, true); err != nil {
		return access{}, nil, err
	}
	return s.roundAccess(c)
}
