package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// goldDecisionForm reads the decision form of one sentence. A missing or
// unreadable version is refused rather than treated as "skip the check":
// the page always sends the one it showed.
func goldDecisionForm(form url.Values) (domain.GoldDecision, int, error) {
	d := domain.GoldDecision{Note: form.Get("note")}
	d.Label = form.Get("label")
	d.ErrorTypes = form["error_types"]
	d.Explanation = strings.TrimSpace(form.Get("explanation"))
	switch form.Get("ambiguous") {
	case "yes":
		d.Ambiguous = ptr(true)
	case "no":
		d.Ambiguous = ptr(false)
	case "":
	default:
		return d, 0, domain.Errorf(domain.EInvalid, "ambiguous: answer yes or no")
	}
	d.AmbiguityType = form.Get("ambiguity_type")
	d.AmbiguityNote = strings.TrimSpace(form.Get("ambiguity_note"))
	version, err := strconv.Atoi(form.Get("version"))
	if err != nil || version < 0 {
		return d, 0, domain.Errorf(domain.EInvalid, "version: reload the page and decide again")
	}
	return d, version, nil
}

// adjSentence finds the sentence named in the URL among the summary's.
func adjSentence(c echo.Context, sum *domain.Summary) (int64, error) {
	id, err := pathID(c, "sen", "sentence")
	if err != nil {
		return 0, err
	}
	for _, x := range sum.Sentences {
		if x.ID == id {
			return id, nil
		}
	}
	return 0, domain.Errorf(domain.ENotFound, "sentence not found in this summary")
}

// adjTarget checks the caller may adjudicate and finds the summary and
// the sentence the URL names.
func (s *Server) adjTarget(c echo.Context) (access, *domain.Summary, int64, error) {
	a, err := s.adjudicationAccess(c)
	if err != nil {
		return a, nil, 0, err
	}
	sum, err := s.adjSummary(c, a.project)
	if err != nil {
		return a, nil, 0, err
	}
	sid, err := adjSentence(c, sum)
	return a, sum, sid, err
}

// postGold records an adjudicator's decision on one sentence.
func (s *Server) postGold(c echo.Context) error {
	a, sum, sid, err := s.adjTarget(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	d, version, err := goldDecisionForm(form)
	if err == nil {
		_, err = s.store.SetGold(c.Request().Context(), a.project.ID, sid, currentUser(c).ID, version, d)
	}
	sent := goldForm(d.GoldValues)
	return s.decided(c, a.project, sum, sid, err, cardState{form: sent, note: d.Note, sent: true}, "Gold label saved.")
}

// postReopen sends a sentence back to the queue.
func (s *Server) postReopen(c echo.Context) error {
	a, sum, sid, err := s.adjTarget(c)
	if err != nil {
		return err
	}
	version, verr := strconv.Atoi(c.FormValue("version"))
	if verr != nil || version < 0 {
		err = domain.Errorf(domain.EInvalid, "version: reload the page and try again")
	} else {
		err = s.store.Reopen(c.Request().Context(), a.project.ID, sid, currentUser(c).ID, version, c.FormValue("reopen_note"))
	}
	return s.decided(c, a.project, sum, sid, err, cardState{}, "Sentence reopened: it waits in the queue again.")
}

// decided answers a decision on one sentence. htmx gets the sentence's
// card with the page parts that follow from it (mark, summary gold,
// history); a plain form post is redirected back to the sentence on
// success and gets the whole page on a refusal. A refused decision keeps
// the values sent, with the reason; on a conflict the card shows the gold
// someone else recorded meanwhile, and the new version, so that saving
// again is a deliberate choice.
func (s *Server) decided(c echo.Context, p *domain.Project, sum *domain.Summary, sid int64, err error, st cardState, ok string) error {
	status := http.StatusOK
	if err != nil {
		code := domain.ErrorCode(err)
		if code != domain.EInvalid && code != domain.EConflict {
			return err
		}
		status, st.err = statusOf(err)
		st.conflict = code == domain.EConflict
		if st.form.ErrorTypes == nil {
			st.form.ErrorTypes = map[string]bool{}
		}
	} else {
		st = cardState{saved: true}
	}
	if err == nil && !isHTMX(c) {
		if ferr := s.setFlash(c, "ok", ok); ferr != nil {
			return ferr
		}
		return redirect(c, fmt.Sprintf("%s#s-%d", adjSummaryURL(p.Slug, sum.ID), sid))
	}
	var v templates.AdjudicationView
	verr := s.snapshot(c, func() (err error) {
		v, err = s.adjudicationView(c, p, sum, map[int64]cardState{sid: st})
		return err
	})
	if verr != nil {
		return verr
	}
	if !isHTMX(c) {
		return s.render(c, status, templates.AdjudicationPage(v))
	}
	for i, x := range v.Sentences {
		if x.ID == sid {
			return s.render(c, status, templates.AdjDecided(v, i))
		}
	}
	return domain.Errorf(domain.ENotFound, "sentence not found in this summary")
}
