package web

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// A save refused with a conflict (another tab saved first, the round was
// closed, the assignment released) is answered with 409 and the form put
// back to what the server holds, so the page never shows labels that were
// not saved; the page stops saving and offers a reload.

func (s *Server) sentenceConflict(c echo.Context, a *domain.Assignment, p *domain.Project, sid int64, cause error) error {
	ctx := c.Request().Context()
	labels, err := s.store.SentenceLabels(ctx, a.ID)
	if err != nil {
		return err
	}
	v := templates.WorkspaceView{AssignmentID: a.ID, Schema: schemaView(p.Settings)}
	l := labels[sid]
	sv := templates.SentenceView{ID: sid, Index: sentenceIndex(c), Label: labelView(l, p.Settings), AssistantShown: assistantShown(p.Settings.AssistantVisibility, l)}
	return s.render(c, http.StatusConflict, templates.SentenceConflict(v, sv, conflictMessage(cause)))
}

func (s *Server) summaryConflict(c echo.Context, a *domain.Assignment, p *domain.Project, cause error) error {
	ctx := c.Request().Context()
	sl, err := s.store.SummaryLabelOf(ctx, a.ID)
	if err != nil {
		return err
	}
	sum, err := s.store.Summary(ctx, a.SummaryID)
	if err != nil {
		return err
	}
	v := templates.WorkspaceView{AssignmentID: a.ID, Schema: schemaView(p.Settings), Topic: sum.Topic,
		Summary: templates.SummaryLabelView{Relevance: sl.Relevance, NonSummary: sl.NonSummary, TopicCategory: sl.TopicCategory, Comment: sl.Comment}}
	return s.render(c, http.StatusConflict, templates.SummaryConflict(v, conflictMessage(cause)))
}

// keyFactConflict answers a refused key-fact link; the page turns the box
// back itself.
func (s *Server) keyFactConflict(c echo.Context, cause error) error {
	return s.render(c, http.StatusConflict, templates.Conflict(conflictMessage(cause)))
}

// conflictMessage is the store's reason as a sentence.
func conflictMessage(err error) string {
	_, msg := statusOf(err)
	r, n := utf8.DecodeRuneInString(msg)
	msg = string(unicode.ToUpper(r)) + msg[n:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}
