package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/web/templates"
)

func (s *Server) projectCrumbs(p *domain.Project) []templates.Link {
	return []templates.Link{{Label: "Projects", Href: "/projects"}, {Label: p.Name, Href: "/p/" + p.Slug}}
}

// annotatorOptions lists the project's annotators for forms.
func (s *Server) annotatorOptions(c echo.Context, p *domain.Project) ([]templates.Option, error) {
	members, err := s.store.Members(c.Request().Context(), p.ID)
	if err != nil {
		return nil, err
	}
	var out []templates.Option
	for _, m := range members {
		if m.Role == domain.RoleAnnotator {
			out = append(out, templates.Option{Value: strconv.FormatInt(m.ID, 10), Label: m.Username})
		}
	}
	return out, nil
}

func (s *Server) roundsView(c echo.Context, p *domain.Project) (templates.RoundsView, error) {
	ctx := c.Request().Context()
	v := templates.RoundsView{Page: s.page(c, "Rounds", s.projectCrumbs(p)...), Slug: p.Slug, Errors: map[string]string{}}
	rounds, err := s.store.Rounds(ctx, p.ID)
	if err != nil {
		return v, err
	}
	totals, err := s.store.RoundTotals(ctx, p.ID)
	if err != nil {
		return v, err
	}
	for _, r := range rounds {
		t := totals[r.ID]
		v.Rounds = append(v.Rounds, templates.RoundRow{ID: r.ID, Name: r.Name, Kind: r.Kind, PerItem: r.PerItem, Status: r.Status,
			Total: t.Total, Submitted: t.Submitted})
	}
	if v.Annotators, err = s.annotatorOptions(c, p); err != nil {
		return v, err
	}
	if v.Summaries, err = s.store.SummaryCount(ctx, p.ID); err != nil {
		return v, err
	}
	v.Form = templates.RoundForm{Kind: domain.RoundProduction, PerItem: 2, Seed: 1, Annotators: map[string]bool{}, Documents: map[string]bool{}}
	f := domain.DocumentFilter{Query: c.QueryParam("q"), Topic: c.QueryParam("topic"), Gold: c.QueryParam("gold")}
	if !slices.Contains(domain.GoldStates, f.Gold) {
		f.Gold = ""
	}
	v.Filter = templates.DocFilterView{Query: f.Query, Topic: f.Topic, Gold: f.Gold}
	if v.Topics, err = s.store.ProjectTopics(ctx, p.ID); err != nil {
		return v, err
	}
	docs, more, err := s.store.PickDocuments(ctx, p.ID, f)
	if err != nil {
		return v, err
	}
	v.PickMore = more
	for _, d := range docs {
		state := fmt.Sprintf("%d of %d sentences with gold", d.Gold, d.Sentences)
		if d.Waiting > 0 {
			state += fmt.Sprintf(", %d waiting", d.Waiting)
		}
		v.Pick = append(v.Pick, templates.PickRow{ID: d.ExternalID, Title: d.Title, Topics: strings.Join(d.Topics, ", "),
			Summaries: d.Summaries, Sentences: d.Sentences, GoldState: state})
	}
	return v, nil
}

func (s *Server) getRounds(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	v, err := s.roundsView(c, a.project)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.RoundsPage(v))
}

// roundForm is the new-round form, checked by app.StartRound.
type roundForm struct {
	Name       string
	Kind       string
	PerItem    int
	Annotators []int64
	Sample     int
	Seed       uint64
	SeedText   string
	KeepDocs   bool
	// Documents are the external ids of the documents ticked; none means
	// every document of the project.
	Documents []string
}

// sentence makes a message a sentence: a capital first letter and a
// full stop.
func sentence(msg string) string {
	if msg == "" {
		return msg
	}
	msg = strings.ToUpper(msg[:1]) + msg[1:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// pageField is where the Rounds page shows an operation's field error.
func pageField(field string) string {
	switch {
	case field == "name", field == "per_item", field == "seed":
		return field
	case strings.HasPrefix(field, "annotators"):
		return "annotators"
	}
	return "round"
}

func (s *Server) postRounds(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	f := roundForm{Name: form.Get("name"), Kind: form.Get("kind")}
	f.PerItem, _ = strconv.Atoi(form.Get("per_item"))
	f.Sample, _ = strconv.Atoi(form.Get("sample"))
	f.SeedText = strings.TrimSpace(form.Get("seed"))
	f.Seed = 1
	if f.SeedText != "" {
		f.Seed, _ = strconv.ParseUint(f.SeedText, 10, 64)
	}
	f.KeepDocs = form.Get("keep_documents") == "true"
	if f.Kind != domain.RoundCalibration {
		f.Kind = domain.RoundProduction
	}
	for _, id := range form["annotators"] {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			f.Annotators = append(f.Annotators, n)
		}
	}
	f.Documents = form["documents"]
	errs := map[string]string{}
	if f.SeedText != "" {
		if _, err := strconv.ParseUint(f.SeedText, 10, 64); err != nil {
			errs["seed"] = "The seed is a whole number, 0 or more."
		}
	}
	var r *domain.Round
	if len(errs) == 0 {
		// The same operation as `annotate assign` and the API.
		r, err = s.app.StartRound(ctx, a.project, app.RoundRequest{Name: f.Name, Kind: f.Kind, PerItem: f.PerItem, Annotators: f.Annotators,
			Documents: f.Documents, Sample: f.Sample, Seed: f.Seed, KeepDocuments: f.KeepDocs})
		if in, ok := app.AsInvalid(err); ok {
			for _, fe := range in.Fields {
				if k := pageField(fe.Field); errs[k] == "" {
					errs[k] = sentence(fe.Message)
				}
			}
		} else if err != nil {
			code := domain.ErrorCode(err)
			if code != domain.EInvalid && code != domain.EConflict {
				return err
			}
			errs["round"] = domain.ErrorMessage(err)
		}
	}
	if len(errs) > 0 {
		v, err := s.roundsView(c, a.project)
		if err != nil {
			return err
		}
		v.Errors = errs
		v.Form = templates.RoundForm{Name: f.Name, Kind: f.Kind, PerItem: f.PerItem, Sample: f.Sample, Seed: f.Seed, KeepDocuments: f.KeepDocs, Annotators: map[string]bool{}, Documents: map[string]bool{}}
		for _, d := range f.Documents {
			v.Form.Documents[d] = true
		}
		for _, id := range form["annotators"] {
			v.Form.Annotators[id] = true
		}
		return s.render(c, http.StatusUnprocessableEntity, templates.RoundsPage(v))
	}
	if err := s.setFlash(c, "ok", "Round "+r.Name+" started."); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID))
}

// roundAccess loads the round named in the URL for a lead of its project.
func (s *Server) roundAccess(c echo.Context) (access, *domain.Round, error) {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return a, nil, err
	}
	id, err := strconv.ParseInt(c.Param("rid"), 10, 64)
	if err != nil {
		return a, nil, domain.Errorf(domain.ENotFound, "round not found")
	}
	r, err := s.store.RoundByID(c.Request().Context(), id)
	if err != nil {
		return a, nil, err
	}
	if r.ProjectID != a.project.ID {
		return a, nil, domain.Errorf(domain.ENotFound, "round not found")
	}
	return a, r, nil
}

func duration(secs int) string {
	return (time.Duration(secs) * time.Second).String()
}

func (s *Server) getRound(c echo.Context) error {
	a, r, err := s.roundAccess(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	v := templates.RoundView{Page: s.page(c, "Round "+r.Name, append(s.projectCrumbs(a.project), templates.Link{Label: "Rounds", Href: "/p/" + a.project.Slug + "/rounds"})...), Slug: a.project.Slug}
	v.Round = templates.RoundRow{ID: r.ID, Name: r.Name, Kind: r.Kind, PerItem: r.PerItem, Status: r.Status}
	paced, err := s.store.RoundPace(ctx, r.ID)
	if err != nil {
		return err
	}
	listed := 0 // the assignments the table lists, released ones too
	for _, p := range paced {
		v.Round.Total += p.Total
		v.Round.Submitted += p.Submitted
		listed += p.Total + p.Released
	}
	v.Progress, v.ETA = pace(paced)
	// The table lists a page of the assignments: a production round can
	// give out hundreds of thousands.
	from, _ := strconv.Atoi(c.QueryParam("from"))
	size := templates.RoundPageSize
	v.From = max(0, min(from, listed-1))
	v.From -= v.From % size
	v.Listed = listed
	pageURL := func(at int) string {
		u := fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID)
		if at > 0 {
			u += "?from=" + strconv.Itoa(at)
		}
		return u
	}
	if v.From > 0 {
		v.Prev = pageURL(v.From - size)
	}
	if v.From+size < listed {
		v.Next = pageURL(v.From + size)
	}
	rows, err := s.store.RoundAssignmentsPage(ctx, r.ID, v.From, size)
	if err != nil {
		return err
	}
	if v.SplitWaiting, v.FlagsWaiting, v.Behind, err = s.store.RoundQueueCounts(ctx, a.project.ID, r.ID); err != nil {
		return err
	}
	v.BehindText = behindText(v.Behind)
	for _, x := range rows {
		v.Assignments = append(v.Assignments, templates.RoundAssignmentRow{ID: x.ID, Username: x.Username, Document: x.Document, SummaryID: x.SummaryID, Topic: x.Topic, Status: x.Status, Labelled: x.Labelled, Sentences: x.Sentences, Active: duration(x.ActiveSeconds),
			Summary: x.Summary, Model: x.Model, First: firstWords(x.First, 8)})
	}
	if v.Annotators, err = s.annotatorOptions(c, a.project); err != nil {
		return err
	}
	d, err := s.store.DealingOf(ctx, r.ID)
	if err != nil {
		return err
	}
	v.Dealing = dealingText(r, d)
	return s.render(c, http.StatusOK, templates.RoundPage(v))
}

func (s *Server) postCloseRound(c echo.Context) error {
	a, r, err := s.roundAccess(c)
	if err != nil {
		return err
	}
	if err := s.store.CloseRound(c.Request().Context(), r.ID); err != nil {
		return err
	}
	msg := "Round closed: its labels can no longer change. Reopen it if that was too soon."
	if r.Kind == domain.RoundCalibration {
		msg = "Round closed: its labels can no longer change, and each annotator can now read their feedback. Reopen it if that was too soon."
	}
	if err := s.setFlash(c, "ok", msg); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID))
}

func (s *Server) postReleaseAssignment(c echo.Context) error {
	a, r, err := s.roundAccess(c)
	if err != nil {
		return err
	}
	aid, _ := strconv.ParseInt(c.Param("aid"), 10, 64)
	if err := s.store.ReleaseAssignment(c.Request().Context(), r.ID, aid); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Assignment released; its labels are kept. Use “undo release” to give it back."); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID))
}

func (s *Server) postReassignAssignment(c echo.Context) error {
	a, r, err := s.roundAccess(c)
	if err != nil {
		return err
	}
	aid, _ := strconv.ParseInt(c.Param("aid"), 10, 64)
	to, _ := strconv.ParseInt(c.FormValue("to"), 10, 64)
	if _, err := s.store.ReassignAssignment(c.Request().Context(), r.ID, aid, to); err != nil {
		// A choice the page offers that cannot be made (the page's one
		// list holds the assignment's own annotator too, and the
		// assignment may have been submitted since the page was read) is
		// said on the round's page, not on an error page headed "Changed
		// elsewhere". A user the list does not offer stays a refused
		// request.
		if domain.ErrorCode(err) != domain.EConflict {
			return err
		}
		if ferr := s.setFlash(c, "error", "Not reassigned: "+domain.ErrorMessage(err)+"."); ferr != nil {
			return ferr
		}
	} else if err := s.setFlash(c, "ok", "Assignment moved to another annotator."); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/p/%s/rounds/%d", a.project.Slug, r.ID))
}

func (s *Server) getHistory(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	aid, _ := strconv.ParseInt(c.Param("aid"), 10, 64)
	asg, err := s.store.AssignmentByID(ctx, aid)
	if err != nil {
		return err
	}
	if asg.ProjectID != a.project.ID {
		return domain.Errorf(domain.ENotFound, "assignment not found")
	}
	u, err := s.store.UserByID(ctx, asg.UserID)
	if err != nil {
		return err
	}
	entries, err := s.store.LabelHistory(ctx, aid)
	if err != nil {
		return err
	}
	v := templates.HistoryView{Page: s.page(c, "Label history", s.projectCrumbs(a.project)...), Annotator: u.DisplayName}
	for _, e := range entries {
		amb := ""
		if e.Label.Ambiguous != nil {
			amb = map[bool]string{true: "yes: " + e.Label.AmbiguityType, false: "no"}[*e.Label.Ambiguous]
		}
		assistant := "hidden"
		if e.Label.AssistantVisible {
			assistant = "visible"
			if e.Label.ChangedAfterReveal {
				assistant = "visible, changed after reveal"
			}
		}
		v.Entries = append(v.Entries, templates.HistoryRow{At: e.At, Username: e.Username, Sentence: e.SentenceIndex, Label: e.Label.Label,
			ErrorTypes: strings.Join(e.Label.ErrorTypes, ", "), Explanation: e.Label.Explanation, Ambiguous: amb, Assistant: assistant})
	}
	return s.render(c, http.StatusOK, templates.HistoryPage(v))
}

// firstWords keeps the first n words of a text, with an ellipsis when it
// cut some.
func firstWords(text string, n int) string {
	words := strings.Fields(text)
	if len(words) <= n {
		return strings.Join(words, " ")
	}
	return strings.Join(words[:n], " ") + " …"
}

// pace makes each annotator's progress row: their counts, last activity,
// median time per submitted summary and the time their open work takes at
// that pace; and the round's end at the current pace, the slowest
// annotator's, since they work side by side ("" while an annotator with
// open work has submitted nothing to measure a pace on).
func pace(paces []domain.AnnotatorPace) ([]templates.ProgressRow, string) {
	rows := make([]templates.ProgressRow, len(paces))
	var roundETA time.Duration
	known := true
	for i := range paces {
		a := &paces[i]
		p := &rows[i]
		*p = templates.ProgressRow{Username: a.Username, Name: a.DisplayName, Total: a.Total, Submitted: a.Submitted, InProgress: a.InProgress,
			Pending: a.Pending, Active: duration(a.ActiveSeconds), LastActive: a.LastActive}
		if a.Submitted == 0 {
			if a.Open > 0 {
				known = false
			}
			continue
		}
		med := a.MedianSeconds
		p.Median = duration(med)
		eta := time.Duration(med*a.Open) * time.Second
		p.ETA = eta.String()
		roundETA = max(roundETA, eta)
	}
	if known && len(rows) > 0 && roundETA > 0 {
		return rows, roundETA.String()
	}
	return rows, ""
}
