package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/web/templates"
)

// getAdjudicationQueue shows the gold counts of each round and the
// sentences waiting for adjudication, most split first, filtered by round
// and dimension. It only reads, from one snapshot: a summary's gold is
// resolved when its last assignment is submitted (see tasks.Submit), so
// the queue is never behind the submissions.
func (s *Server) getAdjudicationQueue(c echo.Context) error {
	a, err := s.adjudicationAccess(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := a.project
	f := domain.QueueFilter{Dimension: c.QueryParam("dim")}
	if _, ok := dimensionNames[f.Dimension]; !ok {
		f.Dimension = ""
	}
	f.RoundID, _ = strconv.ParseInt(c.QueryParam("round"), 10, 64)
	f.Flagged = c.QueryParam("flagged") != ""
	var counts []domain.RoundGold
	var q domain.QueuePage
	var imported []domain.ImportedGold
	var behind int
	from, _ := strconv.Atoi(c.QueryParam("from"))
	err = s.store.FreshSnapshot(ctx, func(ctx context.Context) (err error) {
		// Far behind (after a large import), the page shows only that
		// the queue is catching up: nothing else is read.
		if behind, err = s.store.StaleGoldRows(ctx, p.ID); err != nil || behind > templates.AdjBehindShown {
			return err
		}
		if counts, err = s.store.RoundGoldCounts(ctx, p.ID); err != nil {
			return err
		}
		known := false
		for _, r := range counts {
			known = known || r.ID == f.RoundID
		}
		if !known {
			f.RoundID = 0
		}
		if q, err = s.store.AdjudicationQueue(ctx, p.ID, f, from, templates.AdjQueuePageSize); err != nil {
			return err
		}
		imported, err = s.store.ImportedGoldLabelled(ctx, p.ID, importedListLimit)
		return err
	})
	if err != nil {
		return err
	}
	v := templates.AdjQueueView{Page: s.page(c, "Adjudication", s.projectCrumbs(p)...), Slug: p.Slug,
		Dimension: f.Dimension, Flagged: f.Flagged, Pending: q.Pending, FlaggedCount: q.Flagged, Matching: q.Matching, Behind: behind, BehindText: behindText(behind)}
	for _, d := range domain.Dimensions {
		v.Dimensions = append(v.Dimensions, templates.Option{Value: d, Label: dimensionNames[d]})
	}
	for _, r := range counts {
		v.Rounds = append(v.Rounds, templates.AdjRoundRow{ID: r.ID, Name: r.Name, Kind: r.Kind, Status: r.Status, Sentences: r.Sentences,
			Unanimous: r.Unanimous, Majority: r.Majority, Adjudicated: r.Adjudicated, Imported: r.Imported, Pending: r.Pending, Waiting: r.Waiting,
			MajorityReady: q.Ready[r.ID]})
	}
	v.RoundID = f.RoundID
	names := errorTypeNames(p.Settings)
	v.From = q.From
	page := func(at int) string {
		q := url.Values{}
		if f.RoundID != 0 {
			q.Set("round", strconv.FormatInt(f.RoundID, 10))
		}
		if f.Dimension != "" {
			q.Set("dim", f.Dimension)
		}
		if f.Flagged {
			q.Set("flagged", "1")
		}
		if at > 0 {
			q.Set("from", strconv.Itoa(at))
		}
		if len(q) == 0 {
			return "/p/" + p.Slug + "/adjudication"
		}
		return "/p/" + p.Slug + "/adjudication?" + q.Encode()
	}
	if v.From > 0 {
		v.Prev = page(v.From - templates.AdjQueuePageSize)
	}
	if v.From+templates.AdjQueuePageSize < v.Matching {
		v.Next = page(v.From + templates.AdjQueuePageSize)
	}
	for _, x := range q.Items {
		top, _ := x.Tally.Score()
		split := make([]string, 0, 3)
		for _, d := range x.Tally.Disagreeing() {
			split = append(split, dimensionNames[d])
		}
		v.Items = append(v.Items, templates.AdjQueueItem{
			URL:      fmt.Sprintf("%s#s-%d", adjSummaryURL(p.Slug, x.SummaryID), x.SentenceID),
			Document: x.Document, Summary: x.Summary, Topic: x.Topic, Index: x.Index, Text: x.Text,
			Votes: countsText(domain.DimLabel, x.Tally.Labels, names), Split: strings.Join(split, ", "),
			Score: fmt.Sprintf("%.0f%%", 100*top), Reopened: x.Reopened, Majority: x.MajorityReady(), Flags: x.Flags,
		})
	}
	for _, x := range imported {
		v.Imported = append(v.Imported, templates.AdjImportedItem{
			URL: fmt.Sprintf("%s#s-%d", adjSummaryURL(p.Slug, x.SummaryID), x.SentenceID), SentenceID: x.SentenceID,
			Document: x.Document, Topic: x.Topic, Index: x.Index, Text: x.Text, Gold: x.Gold,
			Votes: countsText(domain.DimLabel, x.Tally.Labels, names), Against: x.Against, Version: x.Version,
		})
	}
	return s.render(c, http.StatusOK, templates.AdjQueuePage(v))
}

// importedListLimit bounds the imported-gold list on the queue page.
const importedListLimit = 200

// postReopenImported reopens a sentence's gold from the queue page (the
// imported-gold list) and returns to the queue, where the sentence now
// waits.
func (s *Server) postReopenImported(c echo.Context) error {
	a, err := s.adjudicationAccess(c)
	if err != nil {
		return err
	}
	sid, err := strconv.ParseInt(c.FormValue("sentence"), 10, 64)
	if err != nil {
		return domain.Errorf(domain.EInvalid, "sentence: not a sentence of this project")
	}
	version, err := strconv.Atoi(c.FormValue("version"))
	if err != nil || version < 0 {
		return domain.Errorf(domain.EInvalid, "version: reload the page and try again")
	}
	if err := s.store.Reopen(c.Request().Context(), a.project.ID, sid, currentUser(c).ID, version, c.FormValue("reopen_note")); err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", "Sentence reopened: it waits in the queue below."); err != nil {
		return err
	}
	return redirect(c, "/p/"+a.project.Slug+"/adjudication")
}

// queueRound reads the round a queue action names; it must be one of the
// project's.
func (s *Server) queueRound(c echo.Context, p *domain.Project) (*domain.Round, error) {
	id, err := strconv.ParseInt(c.FormValue("round"), 10, 64)
	if err != nil || id <= 0 {
		return nil, domain.Errorf(domain.EInvalid, "round: choose a round of this project")
	}
	r, err := s.store.RoundByID(c.Request().Context(), id)
	if err != nil || r.ProjectID != p.ID {
		return nil, domain.Errorf(domain.EInvalid, "round: choose a round of this project")
	}
	return r, nil
}

// postResolve resolves one round's ready summaries again (labels changed
// after submission are picked up), or with no round, the summaries that
// became ready since the last resolution.
func (s *Server) postResolve(c echo.Context) error {
	a, err := s.adjudicationAccess(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var st domain.ResolveStats
	what := "ready summaries"
	if c.FormValue("round") == "" {
		st, err = s.gold.ResolveReady(ctx, a.project.ID)
	} else {
		var r *domain.Round
		if r, err = s.queueRound(c, a.project); err != nil {
			return err
		}
		what = "round " + r.Name
		st, err = s.gold.ResolveRound(ctx, a.project.ID, r.ID)
	}
	if err != nil && st.Summaries > 0 {
		return s.stoppedRun(c, a.project.Slug, "resolving "+what+": "+resolvedText(st.Summaries, st.Unanimous, st.Pending), err)
	}
	if err != nil {
		return err
	}
	msg := "Resolved " + what + ": " + resolvedText(st.Summaries, st.Unanimous, st.Pending) + "."
	if err := s.setFlash(c, "ok", msg); err != nil {
		return err
	}
	return redirect(c, adjQueueURL(a.project.Slug))
}

// postAcceptMajority accepts the strict majority of every pending sentence
// of a round that has one; reopened sentences are left for a person.
func (s *Server) postAcceptMajority(c echo.Context) error {
	a, err := s.adjudicationAccess(c)
	if err != nil {
		return err
	}
	r, err := s.queueRound(c, a.project)
	if err != nil {
		return err
	}
	n, err := s.gold.AcceptMajority(c.Request().Context(), a.project.ID, r.ID, currentUser(c).ID)
	if err != nil && n > 0 {
		return s.stoppedRun(c, a.project.Slug, fmt.Sprintf("the majority was accepted for %d sentences of round %s", n, r.Name), err)
	}
	if err != nil {
		return err
	}
	if err := s.setFlash(c, "ok", fmt.Sprintf("Accepted the majority for %d sentences of round %s.", n, r.Name)); err != nil {
		return err
	}
	return redirect(c, adjQueueURL(a.project.Slug))
}

// behindText says how many changed sentences the gold index is behind,
// as the pages show it: past what the store counts
// (tasks.StaleRowsCounted), "more than" that.
func behindText(n int) string {
	if n > tasks.StaleRowsCounted {
		return "more than " + strconv.Itoa(tasks.StaleRowsCounted)
	}
	return strconv.Itoa(n)
}
