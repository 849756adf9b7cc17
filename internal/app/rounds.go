package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"annotate/internal/domain"
)

// Bounds on a round request.
const (
	maxRoundAnnotators = 1000
	maxRoundDocuments  = 100000
)

// RoundRequest asks for a new round. Annotators are named by user id
// (the Rounds page) or by username (the command line and the API); both
// may be given.
type RoundRequest struct {
	Name           string
	Kind           string // tasks.RoundCalibration or tasks.RoundProduction
	PerItem        int    // production: annotators per summary
	Annotators     []int64
	AnnotatorNames []string
	// Documents limits the round to these documents' summaries (external
	// ids); none means every document.
	Documents []string
	Sample    int // draw this many summaries at random; 0 takes all
	Seed      uint64
	// KeepDocuments deals a document's summaries to the same annotators
	// instead of balancing the load to within one summary.
	KeepDocuments bool
}

// StartRound checks a round request against the project and starts the
// round: a name, a kind, annotators who are all annotators of the project
// (leads and adjudicators are not dealt work), a number per summary
// within their count, a sample size of zero or more. Refusals are
// *Invalid, naming each field at fault.
func (a *App) StartRound(ctx context.Context, p *domain.Project, req RoundRequest) (*domain.Round, error) {
	var c check
	name := strings.TrimSpace(req.Name)
	if name == "" {
		c.add("name", "give the round a name")
	} else if err := domain.CheckText("round name", name, domain.MaxNameLen, false); err != nil {
		c.add("name", domain.ErrorMessage(err))
	}
	annotators, err := a.roundAnnotators(ctx, p, req, &c)
	if err != nil {
		return nil, domain.Op("App.StartRound", err)
	}
	switch req.Kind {
	case domain.RoundCalibration:
	case domain.RoundProduction:
		if n := len(annotators); n > 0 && (req.PerItem < 1 || req.PerItem > n) {
			c.add("per_item", fmt.Sprintf("choose between 1 and %d annotators per summary", n))
		}
	default:
		c.add("kind", "a round is calibration or production")
	}
	if req.Sample < 0 {
		c.add("sample", "the number of summaries to draw is 0 (all) or more")
	}
	if len(req.Documents) > maxRoundDocuments {
		c.add("documents", fmt.Sprintf("at most %d documents", maxRoundDocuments))
	}
	if err := c.err(); err != nil {
		return nil, domain.Op("App.StartRound", err)
	}
	dealing := domain.DealBalanced
	if req.KeepDocuments {
		dealing = domain.DealByDocument
	}
	val, err := a.rounds.StartRound(ctx, p.ID, domain.RoundRequest{Name: name, Kind: req.Kind, PerItem: req.PerItem, Annotators: annotators,
		Documents: req.Documents, Sample: req.Sample, Seed: req.Seed, Dealing: dealing})
	return val, domain.Op("App.StartRound", err)
}

// roundAnnotators resolves the request's annotators to user ids, each an
// annotator of the project, once.
func (a *App) roundAnnotators(ctx context.Context, p *domain.Project, req RoundRequest, c *check) ([]int64, error) {
	n := len(req.Annotators) + len(req.AnnotatorNames)
	if n == 0 {
		c.add("annotators", "choose at least one annotator")
		return nil, nil
	}
	if n > maxRoundAnnotators {
		c.add("annotators", fmt.Sprintf("at most %d annotators", maxRoundAnnotators))
		return nil, nil
	}
	members, err := a.rounds.Members(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	byID, byName := map[int64]domain.Member{}, map[string]domain.Member{}
	for _, m := range members {
		byID[m.ID], byName[strings.ToLower(m.Username)] = m, m
	}
	var out []int64
	seen := map[int64]bool{}
	take := func(field, who string, m domain.Member, ok bool) {
		switch {
		case !ok:
			c.add(field, who+" is not a member of this project")
		case m.Role != domain.RoleAnnotator:
			c.add(field, who+" is "+article(m.Role)+" of this project, not an annotator: only annotators are dealt work")
		case !seen[m.ID]:
			seen[m.ID] = true
			out = append(out, m.ID)
		}
	}
	for i, id := range req.Annotators {
		m, ok := byID[id]
		who := "user " + strconv.FormatInt(id, 10)
		if ok {
			who = strconv.Quote(m.Username)
		}
		take("annotators["+strconv.Itoa(i)+"]", who, m, ok)
	}
	for i, name := range req.AnnotatorNames {
		m, ok := byName[strings.ToLower(strings.TrimSpace(name))]
		take("annotators["+strconv.Itoa(len(req.Annotators)+i)+"]", strconv.Quote(name), m, ok)
	}
	return out, nil
}

// article puts "a" or "an" before a role.
func article(role string) string {
	if role != "" && strings.ContainsAny(role[:1], "aeiou") {
		return "an " + role
	}
	return "a " + role
}
