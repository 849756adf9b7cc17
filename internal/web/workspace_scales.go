package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// scaleRoutes registers the save of a rating-scale value.
func (s *Server) scaleRoutes(u *echo.Group) {
	u.POST("/a/:id/scale", s.postScaleScore)
}

// scaleViews shows the project's rating scales with the assignment's
// values.
func (s *Server) scaleViews(ctx context.Context, a *domain.Assignment, set domain.Settings, sum *domain.Summary) ([]templates.ScaleView, error) {
	if len(set.Scales) == 0 {
		return nil, nil
	}
	scores, err := s.store.ScaleScores(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	var out []templates.ScaleView
	for _, sc := range set.Scales {
		v := templates.ScaleView{Name: sc.Name, Title: sc.Label(), Question: sc.Question, SentenceLevel: sc.Level == domain.LevelSentence, Required: !sc.Optional}
		for _, val := range sc.Values() {
			v.Options = append(v.Options, templates.ScaleOption{Value: val, Anchor: sc.Anchors[val]})
		}
		if v.SentenceLevel {
			for _, x := range sum.Sentences {
				v.Sentences = append(v.Sentences, templates.SentenceScore{SentenceID: x.ID, Index: x.Index, Value: scores[domain.ScaleKey{Sentence: x.ID, Scale: sc.Name}]})
			}
		} else {
			v.Summary = scores[domain.ScaleKey{Scale: sc.Name}]
		}
		out = append(out, v)
	}
	return out, nil
}

// postScaleScore saves one value of a rating scale.
func (s *Server) postScaleScore(c echo.Context) error {
	a, _, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	sentence, err := strconv.ParseInt(c.FormValue("sentence"), 10, 64)
	if err != nil || sentence < 0 {
		return s.saveFailed(c, domain.Errorf(domain.EInvalid, "no sentence given"))
	}
	version, err := s.store.SaveScaleScore(c.Request().Context(), a.ID, a.UserID, formVersion(c), sentence, c.FormValue("scale"), c.FormValue("value"))
	if err != nil {
		return s.saveFailed(c, err)
	}
	return s.render(c, http.StatusOK, templates.Saved(version, savedMessage(s.cfg.Now())))
}
