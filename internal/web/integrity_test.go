package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"annotate/internal/domain"
)

// Finding 10: POST /a/:id/time added whatever the client claimed, even on
// a submitted assignment, and whether the assistant was visible came from
// the client.
func TestRecordedDataIsDecidedByTheServer(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	b := w.browser()
	b.login("ann", testPassword)
	tok := b.csrf(fmt.Sprintf("/a/%d", a.ID))
	active := func() int {
		x, err := w.store.AssignmentByID(w.ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		return x.ActiveSeconds
	}
	t.Run("a burst of time reports adds no more than the wall clock", func(t *testing.T) {
		before := active()
		for i := 0; i < 20; i++ {
			if p := b.post(fmt.Sprintf("/a/%d/time", a.ID), url.Values{"_csrf": {tok}, "seconds": {"999999"}}); p.status != http.StatusNoContent {
				t.Fatalf("report %d: %d", i, p.status)
			}
		}
		// The first report may add one step (120 s); the other 19 came
		// within a second of it.
		if got := active() - before; got > 120+1 {
			t.Fatalf("20 reports in a burst added %d s", got)
		}
	})
	t.Run("assistant visibility from the mode and the history", func(t *testing.T) {
		sid := w.sentences[a.SummaryID][1]
		save := func(label string) domain.SentenceLabel {
			cur := must(w.store.AssignmentByID(w.ctx, a.ID))(t)
			p := b.post(fmt.Sprintf("/a/%d/s/%d", a.ID, sid), url.Values{"_csrf": {tok}, "label": {label}, "ambiguous": {"no"},
				"assistant_visible": {"true"}, "version": {strconv.Itoa(cur.Version)}})
			if p.status != http.StatusOK {
				t.Fatalf("save: %d %s", p.status, p.body)
			}
			ls := must(w.store.SentenceLabels(w.ctx, a.ID))(t)
			return ls[sid]
		}
		// after_first_label (the default): the first label was given
		// blind, whatever the client claims.
		if l := save("faithful"); l.AssistantVisible || l.FirstLabel != "faithful" {
			t.Fatalf("first save: visible=%v first=%q", l.AssistantVisible, l.FirstLabel)
		}
		if l := save("unfaithful"); !l.AssistantVisible || !l.ChangedAfterReveal {
			t.Fatalf("second save: visible=%v changed=%v", l.AssistantVisible, l.ChangedAfterReveal)
		}
	})
	t.Run("no time on a submitted assignment", func(t *testing.T) {
		// As Submit leaves it once every item is labelled.
		if _, err := writeDB(t, w.fixture).Exec(`UPDATE assignments SET status = 'submitted' WHERE id = ?`, a.ID); err != nil {
			t.Fatal(err)
		}
		before := active()
		if p := b.post(fmt.Sprintf("/a/%d/time", a.ID), url.Values{"_csrf": {tok}, "seconds": {"60"}}); p.status != http.StatusConflict {
			t.Fatalf("time on a submitted assignment: %d, want 409", p.status)
		}
		if active() != before {
			t.Fatal("time added to a submitted assignment")
		}
	})
}
