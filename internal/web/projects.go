package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"annotate/web/templates"
)

func (s *Server) getProjects(c echo.Context) error {
	ps, err := s.store.ProjectsFor(c.Request().Context(), currentUser(c))
	if err != nil {
		return err
	}
	v := templates.ProjectListView{Page: s.page(c, "Projects")}
	for _, p := range ps {
		v.Projects = append(v.Projects, templates.ProjectItem{Slug: p.Slug, Name: p.Name, Description: p.Description, Role: p.Role})
	}
	return s.render(c, http.StatusOK, templates.ProjectListPage(v))
}

// overviewDocLimit bounds the document table on the overview page.
const overviewDocLimit = 200

func (s *Server) getProject(c echo.Context) error {
	a, err := s.projectAccess(c, false)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := a.project
	v := templates.ProjectView{
		Page:        s.page(c, p.Name, templates.Link{Label: "Projects", Href: "/projects"}),
		Slug:        p.Slug,
		Name:        p.Name,
		Description: p.Description,
		Role:        a.role,
		IsLead:      a.isLead(),
	}
	if !a.isLead() {
		return s.queuePage(c, p, a.role)
	}
	o, err := s.store.ProjectOverview(ctx, p.ID)
	if err != nil {
		return err
	}
	v.Counts = []templates.Count{
		{Label: "Documents", Value: o.Documents, TestID: "count-documents"},
		{Label: "Summaries", Value: o.Summaries, TestID: "count-summaries"},
		{Label: "Summary sentences", Value: o.Sentences, TestID: "count-sentences"},
		{Label: "Key facts", Value: o.KeyFacts, TestID: "count-keyfacts"},
		{Label: "Gold sentence labels", Value: o.GoldSentences, TestID: "count-gold"},
		{Label: "Rounds", Value: o.Rounds, TestID: "count-rounds"},
		{Label: "Assignments done", Value: o.Submitted, TestID: "count-submitted"},
		{Label: "Assignments", Value: o.Assignments, TestID: "count-assignments"},
	}
	docs, err := s.store.DocumentRows(ctx, p.ID, overviewDocLimit, 0)
	if err != nil {
		return err
	}
	for _, d := range docs {
		v.Documents = append(v.Documents, templates.DocumentRow{
			ExternalID: d.ExternalID, Kind: d.Kind, Language: d.Language, Domain: d.Domain,
			Units: d.Units, Summaries: d.Summaries, Sentences: d.Sentences, KeyFacts: d.KeyFacts, Topics: d.Topics,
		})
	}
	v.MoreDocs = o.Documents - len(docs)
	members, err := s.store.Members(ctx, p.ID)
	if err != nil {
		return err
	}
	me := currentUser(c)
	v.Roles = rolesFor(me)
	for _, m := range members {
		v.Members = append(v.Members, templates.MemberRow{ID: m.ID, Username: m.Username, DisplayName: m.DisplayName, Role: m.Role,
			Removable: m.ID != me.ID && mayManage(me, m.Role)})
	}
	return s.render(c, http.StatusOK, templates.ProjectPage(v))
}
