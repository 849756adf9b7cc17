package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// cardState is what a refused or just-made decision puts on one
// sentence's card: the values the adjudicator sent and why they were not
// recorded.
type cardState struct {
	form     templates.SentenceLabelView
	note     string
	sent     bool // form and note hold a decision that was sent
	err      string
	conflict bool
	saved    bool
}

// adjSummary loads the summary named in the URL; it must belong to the
// project.
func (s *Server) adjSummary(c echo.Context, p *domain.Project) (*domain.Summary, error) {
	id, err := pathID(c, "sum", "summary")
	if err != nil {
		return nil, err
	}
	sum, err := s.store.Summary(c.Request().Context(), id)
	if err != nil {
		return nil, err
	}
	if sum.ProjectID != p.ID {
		return nil, domain.Errorf(domain.ENotFound, "summary not found")
	}
	return sum, nil
}

func (s *Server) getAdjudication(c echo.Context) error {
	var v templates.AdjudicationView
	err := s.snapshot(c, func() error {
		a, err := s.adjudicationAccess(c)
		if err != nil {
			return err
		}
		sum, err := s.adjSummary(c, a.project)
		if err != nil {
			return err
		}
		v, err = s.adjudicationView(c, a.project, sum, nil)
		return err
	})
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.AdjudicationPage(v))
}

// adjudicationView fills the adjudication page of a summary; states
// override what individual cards show. Callers run it in a snapshot, so
// that the gold shown and the version each card sends back with a decision
// are from the same state: a decision made elsewhere meanwhile makes the
// next one a conflict instead of being overwritten unseen.
func (s *Server) adjudicationView(c echo.Context, p *domain.Project, sum *domain.Summary, states map[int64]cardState) (templates.AdjudicationView, error) {
	ctx := c.Request().Context()
	set := p.Settings
	doc, err := s.store.Document(ctx, sum.DocumentID)
	if err != nil {
		return templates.AdjudicationView{}, err
	}
	votes, err := s.store.SummaryVotes(ctx, sum.ID)
	if err != nil {
		return templates.AdjudicationView{}, err
	}
	gold, err := s.store.SummaryGold(ctx, sum.ID)
	if err != nil {
		return templates.AdjudicationView{}, err
	}
	// The adjudicator sees the assistant whatever the visibility mode,
	// which is about anchoring annotators; the model is never named.
	panels, err := s.assistPanels(ctx, doc, sum, set)
	if err != nil {
		return templates.AdjudicationView{}, err
	}
	history, err := s.store.GoldHistory(ctx, p.ID, sum.ID, 200)
	if err != nil {
		return templates.AdjudicationView{}, err
	}
	title := "Adjudicate " + doc.ExternalID
	v := templates.AdjudicationView{
		Page: s.page(c, title, append(s.projectCrumbs(p), templates.Link{Label: "Adjudication", Href: adjQueueURL(p.Slug)})...),
		Slug: p.Slug, SummaryID: sum.ID, Document: doc.ExternalID, Topic: sum.Topic,
		Schema: schemaView(set), Anonymous: set.AnonymousAdjudication, QueueURL: adjQueueURL(p.Slug),
	}
	switch sg, err := s.store.SummaryGoldOf(ctx, sum.ID); {
	case err == nil:
		v.SummaryGold = sg.Label + " (" + sg.Provenance + ")"
	case domain.ErrorCode(err) != domain.ENotFound:
		return v, err
	}
	for _, u := range doc.Units {
		v.Units = append(v.Units, templates.UnitView{Index: u.Index, Speaker: u.Speaker, Text: u.Text})
	}
	names := errorTypeNames(set)
	var aliases *domain.Pseudonyms
	if set.AnonymousAdjudication {
		ps, err := s.store.Pseudonyms(ctx, p.ID)
		if err != nil {
			return templates.AdjudicationView{}, err
		}
		aliases = &ps
	}
	who := annotatorNames(votes, aliases)
	for _, x := range sum.Sentences {
		as := templates.AdjSentence{ID: x.ID, Index: x.Index, Text: x.Text, Version: gold[x.ID].Version, Assist: panels[x.ID]}
		vs := votes[x.ID] // in user id order, the same on every card
		for _, vt := range vs {
			l := vt.Label
			as.Votes = append(as.Votes, templates.AdjVote{
				Annotator: who[vt.UserID], Round: vt.RoundName, Label: l.Label, ErrorTypes: splitNames(l.ErrorTypes, names),
				Explanation: l.Explanation, Ambiguity: ambiguityAnswer(l.Ambiguous, l.AmbiguityType), AmbNote: l.AmbiguityNote, UnsureNote: l.UnsureNote,
				Flag: l.Flag,
			})
		}
		tally := domain.TallyVotes(labelsOfVotes(vs))
		for _, d := range domain.Dimensions {
			if c := tallyCounts(tally, d); len(c) > 0 {
				as.Tally = append(as.Tally, templates.AdjTallyRow{Dimension: dimensionNames[d], Counts: countsText(d, c, names), Split: tally.Disagrees(d)})
			}
		}
		as.Suggest = suggestion(tally, names)
		g, has := gold[x.ID]
		if has {
			as.Gold = goldView(g, names)
			if g.Label != "" {
				as.Form = goldForm(g.GoldValues)
				as.Note = g.Note
			}
		}
		if st, ok := states[x.ID]; ok {
			if st.sent && st.err != "" {
				as.Form, as.Note = st.form, st.note
			}
			as.Error, as.Conflict, as.Saved = st.err, st.conflict, st.saved
		}
		v.Sentences = append(v.Sentences, as)
	}
	if v.Scales, err = s.adjScales(ctx, set, sum, votes, who); err != nil {
		return v, err
	}
	for _, h := range history {
		v.History = append(v.History, templates.AdjHistoryRow{
			At: h.At, Sentence: h.SentenceIndex, Provenance: h.Gold.Provenance, Label: h.Gold.Label,
			ErrorTypes: typeNames(h.Gold.ErrorTypes, names), Ambiguity: goldAmbiguity(h.Gold), By: orAuto(h.By), Note: h.Gold.Note,
		})
	}
	return v, nil
}

// annotatorNames gives each annotator of a summary the name the page
// shows: the display name, or with anonymous adjudication the project's
// pseudonym, the same on every page of the project.
func annotatorNames(votes map[int64][]domain.Vote, aliases *domain.Pseudonyms) map[int64]string {
	names := map[int64]string{}
	for _, vs := range votes {
		for _, v := range vs {
			names[v.UserID] = v.DisplayName
			if aliases != nil {
				names[v.UserID] = aliases.ID(v.UserID)
			}
		}
	}
	return names
}

func labelsOfVotes(vs []domain.Vote) []domain.SentenceLabel {
	out := make([]domain.SentenceLabel, len(vs))
	for i, v := range vs {
		out[i] = v.Label
	}
	return out
}

func tallyCounts(t domain.Tally, dim string) []domain.VoteCount {
	switch dim {
	case domain.DimLabel:
		return t.Labels
	case domain.DimErrorTypes:
		return t.ErrorTypes
	}
	return t.Ambiguity
}

func splitNames(codes []string, names map[string]string) []string {
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		out = append(out, typeName(names, c))
	}
	return out
}

// suggestion words the most frequent value of each dimension and says
// whether it is a strict majority on all of them.
func suggestion(t domain.Tally, names map[string]string) templates.AdjSuggestion {
	if t.N == 0 {
		return templates.AdjSuggestion{}
	}
	sg := t.Suggest()
	gv := sg.Values
	out := templates.AdjSuggestion{Has: true, Label: gv.Label, ErrorTypes: gv.ErrorTypes, TypeNames: typeNames(gv.ErrorTypes, names), AmbType: gv.AmbiguityType}
	out.Majority = sg.Majority[domain.DimLabel] && sg.Majority[domain.DimErrorTypes] && sg.Majority[domain.DimAmbiguity]
	parts := []string{gv.Label}
	if out.TypeNames != "" {
		parts = append(parts, out.TypeNames)
	}
	if gv.Ambiguous != nil {
		out.Ambiguous = map[bool]string{true: "yes", false: "no"}[*gv.Ambiguous]
		parts = append(parts, ambiguityAnswerWords(gv.Ambiguous, gv.AmbiguityType))
	}
	out.Text = strings.Join(parts, "; ")
	return out
}

func ambiguityAnswerWords(amb *bool, typ string) string {
	if amb != nil && *amb {
		return "ambiguous (" + ambiguityName(typ) + ")"
	}
	return "not ambiguous"
}

func goldAmbiguity(g domain.Gold) string {
	if g.Ambiguous == nil {
		return ""
	}
	return ambiguityAnswerWords(g.Ambiguous, g.AmbiguityType)
}

func orAuto(by string) string {
	if by == "" {
		return "automatic"
	}
	return by
}

func goldView(g domain.Gold, names map[string]string) templates.AdjGold {
	return templates.AdjGold{Has: true, Provenance: g.Provenance, Label: g.Label, ErrorTypes: typeNames(g.ErrorTypes, names),
		Ambiguity: goldAmbiguity(g), By: orAuto(g.DecidedByName), At: g.DecidedAt, Note: g.Note, Reopened: g.Reopened()}
}

// goldForm shows gold values in the decision form.
func goldForm(g domain.GoldValues) templates.SentenceLabelView {
	v := templates.SentenceLabelView{Label: g.Label, Explanation: g.Explanation, AmbiguityType: g.AmbiguityType, AmbiguityNote: g.AmbiguityNote, ErrorTypes: map[string]bool{}}
	for _, t := range g.ErrorTypes {
		v.ErrorTypes[t] = true
	}
	if g.Ambiguous != nil {
		v.Ambiguous = map[bool]string{true: "yes", false: "no"}[*g.Ambiguous]
	}
	return v
}
