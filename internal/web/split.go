package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// maxSplitBytes bounds the corrected split a lead may post.
const maxSplitBytes = 1 << 20

// splitSummary loads the summary named in the URL for a lead of its
// project.
func (s *Server) splitSummary(c echo.Context) (access, *domain.Summary, error) {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return a, nil, err
	}
	id, err := strconv.ParseInt(c.Param("sum"), 10, 64)
	if err != nil {
		return a, nil, domain.Errorf(domain.ENotFound, "summary not found")
	}
	sum, err := s.store.Summary(c.Request().Context(), id)
	if err != nil {
		return a, nil, err
	}
	if sum.ProjectID != a.project.ID {
		return a, nil, domain.Errorf(domain.ENotFound, "summary not found")
	}
	return a, sum, nil
}

func (s *Server) splitView(c echo.Context, a access, sum *domain.Summary) (templates.SplitView, error) {
	ctx := c.Request().Context()
	doc, err := s.store.Document(ctx, sum.DocumentID)
	if err != nil {
		return templates.SplitView{}, err
	}
	v := templates.SplitView{Page: s.page(c, "Sentence split", s.projectCrumbs(a.project)...), SummaryID: sum.ExternalID, Document: doc.ExternalID, Topic: sum.Topic}
	var lines []string
	for _, x := range sum.Sentences {
		v.Sentences = append(v.Sentences, x.Text)
		lines = append(lines, strings.Join(strings.Fields(x.Text), " "))
	}
	v.Text = strings.Join(lines, "\n")
	v.Lock, err = s.store.SplitLock(ctx, sum.ID)
	return v, err
}

func (s *Server) getSplit(c echo.Context) error {
	a, sum, err := s.splitSummary(c)
	if err != nil {
		return err
	}
	v, err := s.splitView(c, a, sum)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.SplitPage(v))
}

// postSplit saves a corrected split: one sentence per line. A split that
// changes the text is re-shown with 422; one refused because labelling has
// started is 409 with the reason.
func (s *Server) postSplit(c echo.Context) error {
	a, sum, err := s.splitSummary(c)
	if err != nil {
		return err
	}
	text := c.FormValue("sentences")
	if len(text) > maxSplitBytes {
		return domain.Errorf(domain.EInvalid, "sentences: longer than %d bytes", maxSplitBytes)
	}
	err = s.store.ResplitSummary(c.Request().Context(), a.project.ID, sum.ID, strings.Split(text, "\n"))
	if domain.ErrorCode(err) == domain.EInvalid {
		v, verr := s.splitView(c, a, sum)
		if verr != nil {
			return verr
		}
		v.Text, v.Error = text, domain.ErrorMessage(err)
		return s.render(c, http.StatusUnprocessableEntity, templates.SplitPage(v))
	}
	if err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Split saved."); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/p/%s/summaries/%d/split", a.project.Slug, sum.ID))
}
