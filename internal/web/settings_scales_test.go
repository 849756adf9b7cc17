package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestSettingsScales defines a rating scale on the settings page, refuses
// a broken definition with its reason, and keeps the scales when the form
// is saved again.
func TestSettingsScales(t *testing.T) {
	w := newWorkFixture(t)
	lead := w.browser()
	lead.login("lea", testPassword)
	tok := lead.csrf("/p/alpha/settings")
	form := func(scales string) url.Values {
		return url.Values{"_csrf": {tok}, "error_preset": {"tofueval"}, "assistant_visibility": {"always"}, "faithfulness": {"true"}, "scales": {scales}}
	}
	p := lead.post("/p/alpha/settings", form(`[{"name":"consistency","level":"summary","min":5,"max":1}]`))
	if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "scale 1 (consistency): max: the range 5–1 must go up") {
		t.Fatalf("bad scale: %d\n%s", p.status, p.body)
	}
	p = lead.post("/p/alpha/settings", form(`[{"name":"consistency","title":"Consistency","level":"summary","min":1,"max":5,"anchors":{"1":"contradicts"}}]`))
	if p.status != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", p.status, p.body)
	}
	got := must(w.store.ProjectBySlug(w.ctx, "alpha"))(t)
	if len(got.Settings.Scales) != 1 || got.Settings.Scales[0].Anchors["1"] != "contradicts" {
		t.Fatalf("scales %+v", got.Settings.Scales)
	}
	page := lead.get("/p/alpha/settings")
	if !strings.Contains(visible(page.mustFind(t, tid("settings-scales"))), "consistency") {
		t.Fatal("the settings page does not show the scale")
	}
	a := w.assign["ann"][0]
	ann := w.browser()
	ann.login("ann", testPassword)
	if ws := ann.get(assignmentPath(a.ID)); !ws.testID("scale-consistency") {
		t.Fatal("the labelling page has no consistency scale")
	}
}

func assignmentPath(id int64) string { return "/a/" + strconv.FormatInt(id, 10) }
