package web

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// getFeedback shows an annotator's feedback on a closed calibration round.
// Annotators read only their own (asking for someone else's is 403); a
// lead reads anyone's with ?annotator=ID and without it picks from the
// round's annotators.
func (s *Server) getFeedback(c echo.Context) error {
	a, err := s.projectAccess(c, false)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.Param("rid"), 10, 64)
	if err != nil {
		return domain.Errorf(domain.ENotFound, "round not found")
	}
	r, err := s.store.RoundByID(ctx, id)
	if err != nil {
		return err
	}
	if r.ProjectID != a.project.ID {
		return domain.Errorf(domain.ENotFound, "round not found")
	}
	me := currentUser(c)
	target := me.ID
	if q := c.QueryParam("annotator"); q != "" {
		n, err := strconv.ParseInt(q, 10, 64)
		if err != nil {
			return domain.Errorf(domain.EInvalid, "annotator: %q is not a user id", q)
		}
		if n != me.ID && !a.isLead() {
			return domain.Errorf(domain.EForbidden, "you can read only your own feedback")
		}
		target = n
	}
	crumbs := s.projectCrumbs(a.project)
	if a.isLead() {
		crumbs = append(crumbs, templates.Link{Label: "Round " + r.Name, Href: fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID)})
	}
	v := templates.FeedbackView{Page: s.page(c, "Feedback on round "+r.Name, crumbs...), Round: r.Name, Annotator: "You",
		ShowGold: a.project.Settings.FeedbackGold}
	if a.isLead() {
		prog, err := s.store.RoundProgress(ctx, r.ID)
		if err != nil {
			return err
		}
		for _, p := range prog {
			v.Choices = append(v.Choices, templates.Link{Label: p.DisplayName, Href: fmt.Sprintf("/p/%s/rounds/%d/feedback?annotator=%d", a.project.Slug, r.ID, p.UserID)})
			if p.UserID == target && target != me.ID {
				v.Annotator = p.DisplayName
			}
		}
		if c.QueryParam("annotator") == "" {
			if r.Kind != domain.RoundCalibration {
				return domain.Errorf(domain.ENotFound, "feedback is given for calibration rounds; %s is a production round", r.Name)
			}
			v.Empty = "Choose an annotator above."
			return s.render(c, http.StatusOK, templates.FeedbackPage(v))
		}
	}
	sentences, err := s.store.RoundFeedback(ctx, r.ID, target)
	if err != nil {
		return err
	}
	if err := s.fillFeedback(ctx, a.project, sentences, &v); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.FeedbackPage(v))
}

// fillFeedback words the sentences for the page: names or pseudonyms per
// the project's setting, gold only when the project shows it, the
// assistant's verdict when annotators may see the assistant, and the
// sentences that differed first: from gold, then from the others.
func (s *Server) fillFeedback(ctx context.Context, p *domain.Project, sentences []domain.FeedbackSentence, v *templates.FeedbackView) error {
	set := p.Settings
	names := errorTypeNames(set)
	aliases, err := s.store.Pseudonyms(ctx, p.ID)
	if err != nil {
		return err
	}
	panels := map[int64]templates.AssistView{}
	if set.AssistantVisibility != domain.AssistNever {
		seen := map[int64]bool{}
		for _, f := range sentences {
			if seen[f.SummaryID] {
				continue
			}
			seen[f.SummaryID] = true
			sum, err := s.store.Summary(ctx, f.SummaryID)
			if err != nil {
				return err
			}
			doc, err := s.store.Document(ctx, sum.DocumentID)
			if err != nil {
				return err
			}
			ps, err := s.assistPanels(ctx, doc, sum, set)
			if err != nil {
				return err
			}
			for id, pv := range ps {
				panels[id] = pv
			}
		}
	}
	if !set.FeedbackGold {
		for i := range sentences {
			sentences[i].Gold = nil
		}
	}
	agree := domain.Agreement(sentences)
	v.GroupAgreement = share(agree.GroupAgree, agree.GroupPairs, "label pairs")
	v.GoldAgreement = share(agree.GoldAgree, agree.GoldTotal, "sentences with gold")
	word := func(l domain.SentenceLabel) templates.FeedbackLabel {
		out := templates.FeedbackLabel{Label: l.Label, ErrorTypes: typeNames(l.ErrorTypes, names), Explanation: l.Explanation}
		if l.Ambiguous != nil {
			out.Ambiguity = ambiguityAnswer(l.Ambiguous, l.AmbiguityType)
			if *l.Ambiguous && l.AmbiguityNote != "" {
				out.Ambiguity += ": " + l.AmbiguityNote
			}
		}
		return out
	}
	for _, f := range sentences {
		it := templates.FeedbackItem{ID: "s" + strconv.FormatInt(f.SentenceID, 10), Document: f.Document, Topic: f.Topic, Index: f.Index, Text: f.Text,
			DiffersGold: f.DiffersFromGold()}
		if f.Labelled {
			it.Own = word(f.Own)
		}
		it.Differs = f.DiffersFromGroup() || it.DiffersGold
		for _, o := range f.Others {
			name := o.DisplayName
			if !set.FeedbackNames {
				name = aliases.ID(o.UserID)
			}
			it.Others = append(it.Others, templates.FeedbackVote{Name: name, FeedbackLabel: word(o.Label), Same: domain.SameReading(f.Own, o.Label)})
		}
		if g := f.Gold; g != nil {
			gl := word(domain.SentenceLabel{Label: g.Label, ErrorTypes: g.ErrorTypes, Explanation: g.Explanation, Ambiguous: g.Ambiguous, AmbiguityType: g.AmbiguityType})
			it.Gold = &templates.FeedbackGold{FeedbackLabel: gl, Provenance: g.Provenance, Note: g.Note}
		}
		if pv, ok := panels[f.SentenceID]; ok && pv.HasRun && pv.Adjudicator.Label != "" {
			it.Assistant = &templates.FeedbackAssistant{Label: pv.Adjudicator.Label, ErrorType: pv.Adjudicator.ErrorType, Report: pv.Adjudicator.Reason, Sample: pv.Sample}
		}
		if it.Differs {
			v.Differing++
		}
		v.Items = append(v.Items, it)
	}
	// Differing from gold teaches most, then differing from the others.
	rank := func(it templates.FeedbackItem) int {
		switch {
		case it.DiffersGold:
			return 0
		case it.Differs:
			return 1
		}
		return 2
	}
	sort.SliceStable(v.Items, func(i, j int) bool { return rank(v.Items[i]) < rank(v.Items[j]) })
	return nil
}

// share words a proportion: "7 of 9 label pairs (78%)", or says there is
// nothing to compare.
func share(n, of int, what string) string {
	if of == 0 {
		return "nothing to compare"
	}
	return fmt.Sprintf("%d of %d %s (%d%%)", n, of, what, (200*n+of)/(2*of))
}

// feedbackLinks lists the closed calibration rounds in which the user has
// work, for their project page.
func (s *Server) feedbackLinks(ctx context.Context, p *domain.Project, userID int64) ([]templates.FeedbackLink, error) {
	rounds, err := s.store.FeedbackRounds(ctx, p.ID, userID)
	if err != nil {
		return nil, err
	}
	var out []templates.FeedbackLink
	for _, r := range rounds {
		out = append(out, templates.FeedbackLink{Round: r.Name, Href: fmt.Sprintf("/p/%s/rounds/%d/feedback", p.Slug, r.ID)})
	}
	return out, nil
}
