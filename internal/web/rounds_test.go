package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestRoundPages(t *testing.T) {
	w := newWorkFixture(t)
	ann := must(w.store.UserByName(w.ctx, "ann"))(t)
	bob := must(w.store.UserByName(w.ctx, "bob"))(t)
	lead := w.browser()
	lead.login("lea", testPassword)

	t.Run("annotators cannot open lead pages", func(t *testing.T) {
		b := w.browser()
		b.login("ann", testPassword)
		for _, path := range []string{"/p/alpha/rounds", "/p/alpha/settings", fmt.Sprintf("/p/alpha/history/%d", w.assign["ann"][0].ID)} {
			if p := b.get(path); p.status != http.StatusForbidden {
				t.Errorf("%s: status %d, want 403", path, p.status)
			}
		}
	})
	t.Run("a bad round form says what is wrong", func(t *testing.T) {
		tok := lead.csrf("/p/alpha/rounds")
		p := lead.post("/p/alpha/rounds", url.Values{"_csrf": {tok}, "name": {"cal"}, "kind": {"production"}, "per_item": {"3"}, "annotators": {strconv.FormatInt(ann.ID, 10)}})
		if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "Choose between 1 and 1 annotators") {
			t.Fatalf("status %d", p.status)
		}
	})
	var roundURL string
	t.Run("start a calibration round", func(t *testing.T) {
		tok := lead.csrf("/p/alpha/rounds")
		p := lead.post("/p/alpha/rounds", url.Values{"_csrf": {tok}, "name": {"cal-1"}, "kind": {"calibration"}, "annotators": {strconv.FormatInt(ann.ID, 10), strconv.FormatInt(bob.ID, 10)}, "sample": {"1"}})
		if p.status != http.StatusSeeOther {
			t.Fatalf("status %d: %s", p.status, p.body)
		}
		roundURL = p.header.Get("Location")
		page := lead.get(roundURL)
		if page.status != http.StatusOK {
			t.Fatalf("round page: status %d", page.status)
		}
		page.mustFind(t, tid("progress"))
		if n := page.mustFind(t, tid("assignments")).Find(`a[href*="/history/"]`).Length(); n != 2 {
			t.Fatalf("round page: %d history links, want 2", n)
		}
	})
	t.Run("history lists saved changes", func(t *testing.T) {
		a := w.assign["ann"][0]
		b := w.browser()
		b.login("ann", testPassword)
		b.save(a, w.sentences[a.SummaryID][0], "0", url.Values{"label": {"unfaithful"}, "explanation": {"wrong count"}})
		p := lead.get(fmt.Sprintf("/p/alpha/history/%d", a.ID))
		if p.status != http.StatusOK || !strings.Contains(p.body, "wrong count") || !strings.Contains(p.body, "unfaithful") {
			t.Fatalf("history: %d", p.status)
		}
	})
	t.Run("settings warn when labels exist and refuse a bad preset", func(t *testing.T) {
		p := lead.get("/p/alpha/settings")
		if !p.testID("labels-exist") {
			t.Fatal("no warning about existing labels")
		}
		tok := lead.csrf("/p/alpha/settings")
		p = lead.post("/p/alpha/settings", url.Values{"_csrf": {tok}, "error_preset": {"custom"}, "assistant_visibility": {"always"}})
		if p.status != http.StatusUnprocessableEntity || !p.testID("settings-error") {
			t.Fatalf("custom without types: %d", p.status)
		}
		p = lead.post("/p/alpha/settings", url.Values{"_csrf": {tok}, "error_preset": {"custom"}, "custom_errors": {"num | Wrong number | A number differs."}, "assistant_visibility": {"always"}, "faithfulness": {"true"}, "error_types": {"true"}})
		if p.status != http.StatusSeeOther {
			t.Fatalf("save settings: %d", p.status)
		}
		got := must(w.store.ProjectBySlug(w.ctx, "alpha"))(t)
		if got.Settings.ErrorPreset != "custom" || len(got.Settings.CustomErrors) != 1 || got.Settings.CustomErrors[0].Code != "num" {
			t.Fatalf("settings = %+v", got.Settings)
		}
	})
	t.Run("close the round", func(t *testing.T) {
		tok := lead.csrf(roundURL)
		if p := lead.post(roundURL+"/close", url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
			t.Fatalf("close: %d", p.status)
		}
		closed := lead.get(roundURL)
		if got := texts(closed.mustFind(t, "#main h1 .badge")); !slices.Contains(got, "closed") {
			t.Fatalf("round not shown as closed: badges %q", got)
		}
		closed.noneIn(t, "#main", tid("close-round-confirm"))
	})
}
