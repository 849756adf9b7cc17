package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"annotate/internal/assist"
	"annotate/internal/domain"
	"annotate/web/templates"
)

// assignmentAccess loads the assignment named in the URL. Its annotator may
// write; a lead of its project (or an admin) may only read; anyone else
// gets 404, the same as for an id that does not exist.
func (s *Server) assignmentAccess(c echo.Context) (*domain.Assignment, *domain.Project, bool, error) {
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return nil, nil, false, domain.Errorf(domain.ENotFound, "assignment not found")
	}
	a, err := s.store.AssignmentByID(ctx, id)
	if err != nil {
		return nil, nil, false, err
	}
	p, err := s.store.ProjectByID(ctx, a.ProjectID)
	if err != nil {
		return nil, nil, false, err
	}
	// An assignment with its own assistance (a study's condition) is
	// shown and saved with it.
	if x, own, err := s.store.AssignmentAssistance(ctx, a.ID); err != nil {
		return nil, nil, false, err
	} else if own {
		cp := *p
		cp.Settings.AssistantVisibility, cp.Settings.AssistVerdictOnly = x.Visibility, x.VerdictOnly
		p = &cp
	}
	u := currentUser(c)
	if a.UserID == u.ID {
		return a, p, false, nil
	}
	role, err := s.store.Role(ctx, p.ID, u.ID)
	if err != nil {
		return nil, nil, false, err
	}
	if u.IsAdmin || role == domain.RoleLead {
		return a, p, true, nil
	}
	return nil, nil, false, domain.Errorf(domain.ENotFound, "assignment not found")
}

// ownAssignment is assignmentAccess for writes: only the annotator.
func (s *Server) ownAssignment(c echo.Context) (*domain.Assignment, *domain.Project, error) {
	a, p, readOnly, err := s.assignmentAccess(c)
	if err != nil {
		return nil, nil, err
	}
	if readOnly {
		return nil, nil, domain.Errorf(domain.EForbidden, "only the assigned annotator can change these labels")
	}
	if s.app.ParticipantTimeOver(c.Request().Context(), currentUser(c)) {
		return nil, nil, errTimeOver
	}
	return a, p, nil
}

// errTimeOver refuses a change from a study participant whose time limit
// has passed.
var errTimeOver = domain.Errorf(domain.EForbidden, "The time for this study is over, so this change was not saved; the summaries you submitted are kept. Open the study page (/study) to finish and get your completion code.")

func assignmentURL(id int64) string { return "/a/" + strconv.FormatInt(id, 10) }

func (s *Server) getAssignment(c echo.Context) error {
	if s.app.ParticipantTimeOver(c.Request().Context(), currentUser(c)) {
		return redirect(c, "/study")
	}
	var v templates.WorkspaceView
	var a *domain.Assignment
	var readOnly bool
	err := s.snapshot(c, func() error {
		var p *domain.Project
		var err error
		a, p, readOnly, err = s.assignmentAccess(c)
		if err != nil {
			return err
		}
		v, err = s.workspaceView(c, a, p, readOnly)
		return err
	})
	if err != nil {
		return err
	}
	// The first view of an open assignment starts the wall-clock time its
	// active time is bounded by.
	if !readOnly && (a.Status == domain.StatusPending || a.Status == domain.StatusInProgress) {
		if err := s.store.MarkPageOpened(c.Request().Context(), a.ID); err != nil {
			return err
		}
	}
	// A refused submit redirects here (POST-redirect-GET) to list what is
	// still missing.
	if c.QueryParam("incomplete") != "" && !readOnly && a.Status != domain.StatusSubmitted {
		if v.Missing, err = s.store.Missing(c.Request().Context(), a.ID); err != nil {
			return err
		}
	}
	return s.render(c, http.StatusOK, templates.WorkspacePage(v))
}

func schemaView(set domain.Settings) templates.SchemaView {
	sv := templates.SchemaView{
		Faithfulness: set.Faithfulness, ErrorTypes: set.ErrorTypes, Explanation: set.Explanation, Borderline: set.Borderline,
		Ambiguity: set.Ambiguity, KeyFacts: set.KeyFacts, Relevance: set.Relevance, TopicCategory: set.TopicCategory,
		UnsureNote: set.UnsureNote, AssistantMode: set.AssistantVisibility,
	}
	for _, t := range set.ErrorTaxonomy() {
		sv.ErrorTaxonomy = append(sv.ErrorTaxonomy, templates.TaxonomyView(t))
	}
	for _, t := range domain.AmbiguityTypes {
		sv.AmbiguityTypes = append(sv.AmbiguityTypes, templates.TaxonomyView(t))
	}
	return sv
}

// assistantShown applies the project's visibility mode to one label.
func assistantShown(mode string, l domain.SentenceLabel) bool {
	switch mode {
	case domain.AssistAlways:
		return true
	case domain.AssistAfterLabel:
		return l.Label != ""
	}
	return false
}

func labelView(l domain.SentenceLabel, set domain.Settings) templates.SentenceLabelView {
	v := templates.SentenceLabelView{
		Label: l.Label, Explanation: l.Explanation, AmbiguityType: l.AmbiguityType, AmbiguityNote: l.AmbiguityNote,
		UnsureNote: l.UnsureNote, Flag: l.Flag, ErrorTypes: map[string]bool{},
	}
	for _, t := range l.ErrorTypes {
		v.ErrorTypes[t] = true
	}
	if l.Ambiguous != nil {
		v.Ambiguous = map[bool]string{true: "yes", false: "no"}[*l.Ambiguous]
	}
	v.Started = l.Label != ""
	v.Complete = len(l.Missing(set)) == 0
	return v
}

func (s *Server) workspaceView(c echo.Context, a *domain.Assignment, p *domain.Project, readOnly bool) (templates.WorkspaceView, error) {
	ctx := c.Request().Context()
	set := p.Settings
	sum, err := s.store.Summary(ctx, a.SummaryID)
	if err != nil {
		return templates.WorkspaceView{}, err
	}
	doc, err := s.store.Document(ctx, sum.DocumentID)
	if err != nil {
		return templates.WorkspaceView{}, err
	}
	labels, err := s.store.SentenceLabels(ctx, a.ID)
	if err != nil {
		return templates.WorkspaceView{}, err
	}
	sl, err := s.store.SummaryLabelOf(ctx, a.ID)
	if err != nil {
		return templates.WorkspaceView{}, err
	}
	nav, err := s.store.QueueNav(ctx, a)
	if err != nil {
		return templates.WorkspaceView{}, err
	}
	v := templates.WorkspaceView{
		Page: s.page(c, "Summary "+strconv.Itoa(a.Position), templates.Link{Label: "Projects", Href: "/projects"},
			templates.Link{Label: p.Name, Href: "/p/" + p.Slug}),
		AssignmentID: a.ID, Version: a.Version, ReadOnly: readOnly, Status: a.Status,
		ProjectSlug: p.Slug, ProjectName: p.Name, Topic: sum.Topic, Dialogue: doc.Kind == domain.KindDialogue,
		DocTitle: doc.Title, DocExternal: doc.ExternalID, DocLang: langOr(doc.Language), SumLang: langOr(sum.Language),
		ActiveSeconds: a.ActiveSeconds,
		Schema:        schemaView(set),
		Summary:       templates.SummaryLabelView{Relevance: sl.Relevance, NonSummary: sl.NonSummary, TopicCategory: sl.TopicCategory, Comment: sl.Comment},
		Guidelines:    renderMarkdown(p.Guidelines),
		Total:         nav.Total, Done: nav.Done, Position: nav.Position,
	}
	if nav.Prev != 0 {
		v.PrevURL = assignmentURL(nav.Prev)
	}
	if nav.Next != 0 {
		v.NextURL = assignmentURL(nav.Next)
	}
	if readOnly {
		if u, err := s.store.UserByID(ctx, a.UserID); err == nil {
			v.Annotator = u.DisplayName
		}
		v.SplitURL = "/p/" + p.Slug + "/summaries/" + strconv.FormatInt(sum.ID, 10) + "/split"
	}
	if k, ok, err := s.store.SkipOf(ctx, a.ID); err != nil {
		return v, err
	} else if ok {
		v.Skipped, v.SkipReason = true, k.Reason
	}
	// The breadcrumb names the summary by the same number as the header.
	v.Page.Title = "Summary " + strconv.Itoa(v.Position) + " of " + strconv.Itoa(v.Total)
	for _, u := range doc.Units {
		v.Units = append(v.Units, templates.UnitView{Index: u.Index, Speaker: u.Speaker, Text: u.Text})
	}
	assist, err := s.assistFor(ctx, p, doc, sum)
	if err != nil {
		return v, err
	}
	for _, x := range sum.Sentences {
		l := labels[x.ID]
		v.Sentences = append(v.Sentences, templates.SentenceView{
			ID: x.ID, Index: x.Index, Text: x.Text, Translation: x.Translation,
			Label:          labelView(l, set),
			AssistantShown: readOnly || assistantShown(set.AssistantVisibility, l), // leads may always read it
			Assist:         assist[x.ID],
		})
	}
	if sum.Original != "" {
		v.Original = wordDiff(sum.Original, sentencesText(sum))
	}
	if set.KeyFacts {
		if v.KeyFacts, err = s.keyFactGroups(c, a, doc, sum); err != nil {
			return v, err
		}
	}
	v.Scales, err = s.scaleViews(ctx, a, set, sum)
	return v, err
}

// langOr is a document's or summary's language for a lang attribute,
// English when the import did not say.
func langOr(lang string) string {
	if lang == "" {
		return "en"
	}
	return lang
}

func sentencesText(sum *domain.Summary) string {
	var b []byte
	for i, x := range sum.Sentences {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, x.Text...)
	}
	return string(b)
}

func (s *Server) keyFactGroups(c echo.Context, a *domain.Assignment, doc *domain.Document, sum *domain.Summary) ([]templates.KeyFactGroup, error) {
	ctx := c.Request().Context()
	facts, err := s.store.KeyFacts(ctx, doc.ID, sum.Topic)
	if err != nil {
		return nil, err
	}
	links, err := s.store.KeyFactLinks(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	var out []templates.KeyFactGroup
	for _, f := range facts {
		if len(out) == 0 || out[len(out)-1].Category != f.Category {
			out = append(out, templates.KeyFactGroup{Category: f.Category})
		}
		kv := templates.KeyFactView{ID: f.ID, Text: f.Text}
		for _, x := range sum.Sentences {
			kv.Links = append(kv.Links, links[[2]int64{f.ID, x.ID}])
		}
		g := &out[len(out)-1]
		g.Facts = append(g.Facts, kv)
	}
	return out, nil
}

func formVersion(c echo.Context) int {
	v, _ := strconv.Atoi(c.FormValue("version"))
	return v
}

func savedMessage(now time.Time) string { return "Saved at " + now.Format("15:04:05") }

// saveFailed answers a refused save with a fragment htmx shows in place of
// the save status; 5xx errors go to the error handler as usual.
func (s *Server) saveFailed(c echo.Context, err error) error {
	status, msg := statusOf(err)
	if status >= 500 {
		return err
	}
	return s.render(c, status, templates.SaveFailed("Not saved: "+msg))
}

func (s *Server) postSentenceLabel(c echo.Context) error {
	a, p, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sid, err := strconv.ParseInt(c.Param("sid"), 10, 64)
	if err != nil {
		return domain.Errorf(domain.ENotFound, "sentence not found")
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	mode := p.Settings.AssistantVisibility
	l, version, err := s.store.SaveSentenceLabelFromPage(ctx, a.ID, a.UserID, formVersion(c), sentenceLabelForm(sid, form))
	if domain.ErrorCode(err) == domain.EConflict {
		return s.sentenceConflict(c, a, p, sid, err)
	}
	if err != nil {
		return s.saveFailed(c, err)
	}
	sv := templates.SentenceView{ID: sid, Label: labelView(l, p.Settings)}
	reveal := mode == domain.AssistAfterLabel && !l.AssistantVisible && l.Label != ""
	v := templates.WorkspaceView{Version: version, AssignmentID: a.ID}
	sv.Index = sentenceIndex(c)
	if reveal {
		if sv.Assist, err = s.sentenceAssist(c, a, p, sid); err != nil {
			return err
		}
	}
	return s.render(c, http.StatusOK, templates.SentenceSaved(v, sv, reveal, savedMessage(s.cfg.Now())))
}

// sentenceAssist is the assistant panel of one sentence, for the save that
// reveals it: one indexed read of the sentence's newest output (and the
// document's unit count), not the whole summary's panels.
func (s *Server) sentenceAssist(c echo.Context, a *domain.Assignment, p *domain.Project, sid int64) (templates.AssistView, error) {
	ctx := c.Request().Context()
	var v templates.AssistView
	out, ok, err := s.assists.AssistPanelSentence(ctx, sid)
	if err != nil {
		return v, err
	}
	if ev, cached := s.evidence.lookup(a.SummaryID, sid); cached {
		v.Evidence = ev
	} else if !ok {
		// Not cached (a restart since the page was read): build it as the
		// page does.
		sum, err := s.store.Summary(ctx, a.SummaryID)
		if err != nil {
			return v, err
		}
		doc, err := s.store.Document(ctx, sum.DocumentID)
		if err != nil {
			return v, err
		}
		v.Evidence = s.evidence.get(doc, sum)[sid]
	}
	if !ok {
		return v, nil
	}
	var r assist.SentenceResult
	if err := json.Unmarshal(out.Output, &r); err != nil {
		s.log.Error("unreadable assistant output", "run", out.RunID, "sentence", sid, "err", err)
		return v, nil
	}
	if r.Status == assist.StatusOK {
		units, err := s.assists.UnitCount(ctx, a.DocumentID)
		if err != nil {
			return v, err
		}
		fillPanel(&v, r, errorTypeNames(p.Settings), units)
		v.Sample = out.Sample
		if p.Settings.AssistVerdictOnly {
			verdictOnly(&v)
		}
	}
	return v, nil
}

// sentenceIndex is the sentence number the page sent along, used only to
// keep the mark's test id; 0 when absent.
func sentenceIndex(c echo.Context) int {
	n, _ := strconv.Atoi(c.FormValue("index"))
	return n
}

func ptr[T any](v T) *T { return &v }

func (s *Server) postSummaryLabel(c echo.Context) error {
	a, p, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	rel, _ := strconv.Atoi(c.FormValue("relevance"))
	l := domain.SummaryLabel{Relevance: rel, NonSummary: c.FormValue("non_summary") == "true", TopicCategory: c.FormValue("topic_category"), Comment: c.FormValue("comment")}
	version, err := s.store.SaveSummaryLabel(c.Request().Context(), a.ID, a.UserID, formVersion(c), l)
	if domain.ErrorCode(err) == domain.EConflict {
		return s.summaryConflict(c, a, p, err)
	}
	if err != nil {
		return s.saveFailed(c, err)
	}
	return s.render(c, http.StatusOK, templates.Saved(version, savedMessage(s.cfg.Now())))
}

func (s *Server) postKeyFactLink(c echo.Context) error {
	a, _, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	kf, err1 := strconv.ParseInt(c.Param("kf"), 10, 64)
	sid, err2 := strconv.ParseInt(c.Param("sid"), 10, 64)
	if err1 != nil || err2 != nil {
		return domain.Errorf(domain.ENotFound, "key fact not found")
	}
	version, err := s.store.SetKeyFactLink(c.Request().Context(), a.ID, a.UserID, formVersion(c), kf, sid, c.FormValue("on") == "true")
	if domain.ErrorCode(err) == domain.EConflict {
		return s.keyFactConflict(c, err)
	}
	if err != nil {
		return s.saveFailed(c, err)
	}
	return s.render(c, http.StatusOK, templates.Saved(version, savedMessage(s.cfg.Now())))
}

func (s *Server) postActiveTime(c echo.Context) error {
	a, _, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	secs, _ := strconv.Atoi(c.FormValue("seconds"))
	if err := s.store.AddActiveTime(c.Request().Context(), a.ID, a.UserID, secs); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) postSubmit(c echo.Context) error {
	a, p, err := s.ownAssignment(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	// The page sends the active time it has counted since its last report
	// with the submit itself, so a summary labelled in less than the
	// report interval does not record 0 s. It is added first, bounded as
	// every report is, and kept even when the submit is refused.
	if secs, err := strconv.Atoi(c.FormValue("active_seconds")); err == nil && secs > 0 {
		if err := s.store.AddActiveTime(ctx, a.ID, a.UserID, secs); err != nil && domain.ErrorCode(err) != domain.EConflict {
			return err
		}
	}
	err = s.store.Submit(ctx, a.ID, a.UserID)
	var inc *domain.Incomplete
	if errors.As(err, &inc) {
		// POST-redirect-GET: the page lists what is missing, and a reload
		// shows it again instead of submitting again.
		return redirect(c, assignmentURL(a.ID)+"?incomplete=1")
	}
	if err != nil {
		return err
	}
	next, err := s.store.NextOpen(ctx, a)
	if err != nil {
		return err
	}
	if to := s.afterSubmit(c); to != "" {
		return redirect(c, to)
	}
	if next != 0 {
		if err := s.setFlash(c, "ok", "Submitted. Here is the next summary."); err != nil {
			return err
		}
		return redirect(c, assignmentURL(next))
	}
	if err := s.setFlash(c, "ok", "Submitted. Your queue in this project is done."); err != nil {
		return err
	}
	return redirect(c, "/p/"+p.Slug)
}

// snippet cuts a summary's first sentence for a queue row.
func snippet(text string) string {
	if utf8.RuneCountInString(text) < 160 {
		return text
	}
	if i := strings.LastIndexByte(text, ' '); i > 80 {
		text = text[:i]
	}
	return text + "…"
}

// queuePageSize is how many assignments the queue page lists at once.
const queuePageSize = 100

// queuePage lists one page of the annotator's queue: by default the page
// holding the next assignment to label, or ?page=N. The counts and the
// next assignment come from the queue index, not from loading the queue.
func (s *Server) queuePage(c echo.Context, p *domain.Project, role string) error {
	ctx := c.Request().Context()
	uid := currentUser(c).ID
	v := templates.QueueView{Page: s.page(c, p.Name, templates.Link{Label: "Projects", Href: "/projects"}), ProjectSlug: p.Slug, ProjectName: p.Name,
		Adjudicator: role == domain.RoleAdjudicator}
	err := s.store.Snapshot(ctx, func(ctx context.Context) error {
		qs, err := s.store.QueueCounts(ctx, p.ID, uid)
		if err != nil {
			return err
		}
		v.Total, v.Done = qs.Total, qs.Done
		if qs.NextOpen != 0 {
			v.NextURL = assignmentURL(qs.NextOpen)
		}
		pages := max(1, (qs.Total+queuePageSize-1)/queuePageSize)
		page := qs.NextRank/queuePageSize + 1
		if n, err := strconv.Atoi(c.QueryParam("page")); err == nil {
			page = n
		}
		page = min(max(page, 1), pages)
		offset := (page - 1) * queuePageSize
		queue, err := s.store.QueueEntriesPage(ctx, p.ID, uid, offset, queuePageSize)
		if err != nil {
			return err
		}
		skipped, err := s.store.Skipped(ctx, p.ID, uid)
		if err != nil {
			return err
		}
		for i, q := range queue {
			v.Items = append(v.Items, templates.QueueItem{URL: assignmentURL(q.ID), Position: offset + i + 1, Round: q.RoundName,
				Document: q.Document, Title: q.Title, Topic: q.Topic, Snippet: snippet(q.Snippet), Sentences: q.Sentences, Status: q.Status, SkipReason: skipped[q.ID]})
		}
		v.Feedback, err = s.feedbackLinks(ctx, p, uid)
		if err != nil {
			return err
		}
		if page > 1 {
			v.EarlierURL = fmt.Sprintf("/p/%s?page=%d", p.Slug, page-1)
		}
		if page < pages {
			v.LaterURL = fmt.Sprintf("/p/%s?page=%d", p.Slug, page+1)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.QueuePage(v))
}
