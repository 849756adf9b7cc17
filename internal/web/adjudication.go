package web

import (
	"fmt"
	"strconv"
	"strings"

	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// adjudicationAccess lets in the project's leads (and admins) and its
// adjudicators; annotators get 403 and non-members 404, as projectAccess
// does for lead pages.
func (s *Server) adjudicationAccess(c echo.Context) (access, error) {
	a, err := s.projectAccess(c, false)
	if err != nil {
		return a, err
	}
	if a.role != domain.RoleLead && a.role != domain.RoleAdjudicator {
		return a, domain.Errorf(domain.EForbidden, "only a lead or an adjudicator of this project can do that")
	}
	return a, nil
}

func adjQueueURL(slug string) string { return "/p/" + slug + "/adjudication" }

func adjSummaryURL(slug string, summaryID int64) string {
	return fmt.Sprintf("/p/%s/adjudication/s/%d", slug, summaryID)
}

// pathID parses a numeric path parameter; anything else is not found.
func pathID(c echo.Context, name, what string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.Errorf(domain.ENotFound, "%s not found", what)
	}
	return id, nil
}

// dimensionNames are the adjudicated dimensions as pages name them.
var dimensionNames = map[string]string{
	domain.DimLabel:      "faithfulness",
	domain.DimErrorTypes: "error types",
	domain.DimAmbiguity:  "ambiguity",
}

// voteValueText words one tallied value of a dimension (see
// tasks.VoteCount) with the names people read.
func voteValueText(dim, value string, names map[string]string) string {
	switch dim {
	case domain.DimErrorTypes:
		if value == "" {
			return "none"
		}
		return typeNames(strings.Split(value, ","), names)
	case domain.DimAmbiguity:
		if t, ok := strings.CutPrefix(value, "yes:"); ok {
			return "ambiguous: " + ambiguityName(t)
		}
		return "not ambiguous"
	}
	return value
}

func typeNames(codes []string, names map[string]string) string {
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		out = append(out, typeName(names, c))
	}
	return strings.Join(out, ", ")
}

func ambiguityName(code string) string {
	if t, ok := domain.AmbiguityType(code); ok {
		return t.Name
	}
	if code == "" {
		return "no type"
	}
	return code
}

// countsText words a dimension's tally: "faithful 2 · unfaithful 1".
func countsText(dim string, counts []domain.VoteCount, names map[string]string) string {
	parts := make([]string, 0, len(counts))
	for _, c := range counts {
		parts = append(parts, fmt.Sprintf("%s %d", voteValueText(dim, c.Value, names), c.N))
	}
	return strings.Join(parts, " · ")
}

// ambiguityText words an ambiguity answer with its type.
func ambiguityAnswer(amb *bool, typ string) string {
	switch {
	case amb == nil:
		return "not answered"
	case *amb:
		return "yes: " + ambiguityName(typ)
	}
	return "no"
}
