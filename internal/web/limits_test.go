package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// Finding 11: round names, guidelines and custom taxonomies had no caps (a
// 200 KB round name gave a 500 after the round was committed), and NUL,
// control characters and invalid UTF-8 were stored as sent.
func TestTextLimits(t *testing.T) {
	w := newWorkFixture(t)
	lead := w.browser()
	lead.login("lea", testPassword)
	tok := lead.csrf("/projects")
	rounds := func() int {
		rs, err := w.store.Rounds(w.ctx, w.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}
	settings := func(extra url.Values) url.Values {
		v := url.Values{"_csrf": {tok}, "faithfulness": {"true"}, "error_types": {"true"}, "explanation": {"true"},
			"error_preset": {"tofueval"}, "assistant_visibility": {"after_first_label"}}
		for k, x := range extra {
			v[k] = x
		}
		return v
	}
	annID := strconv.FormatInt(w.assign["ann"][0].UserID, 10)
	cases := []struct {
		name  string
		path  string
		form  url.Values
		field string
	}{
		{"200 KB round name", "/p/alpha/rounds", url.Values{"_csrf": {tok}, "name": {strings.Repeat("r", 200<<10)}, "kind": {"calibration"}, "annotators": {annID}}, "round name"},
		{"NUL in a round name", "/p/alpha/rounds", url.Values{"_csrf": {tok}, "name": {"r\x00"}, "kind": {"calibration"}, "annotators": {annID}}, "round name"},
		{"300,000-character guidelines", "/p/alpha/settings", settings(url.Values{"guidelines": {strings.Repeat("g", 300000)}}), "guidelines"},
		{"20,000 custom error types", "/p/alpha/settings", settings(url.Values{"error_preset": {"custom"}, "custom_errors": {customTypes(20000)}}), "custom error taxonomy"},
		{"control character in a custom type", "/p/alpha/settings", settings(url.Values{"error_preset": {"custom"}, "custom_errors": {"a|A\x07|def"}}), "custom error type 1 name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := rounds()
			before2 := must(w.store.ProjectBySlug(w.ctx, "alpha"))(t)
			p := lead.post(c.path, c.form)
			if p.status != http.StatusUnprocessableEntity || !strings.Contains(strings.ToLower(p.body), c.field) {
				t.Fatalf("status %d, want 422 naming %q", p.status, c.field)
			}
			after := must(w.store.ProjectBySlug(w.ctx, "alpha"))(t)
			if rounds() != before || after.Guidelines != before2.Guidelines || len(after.Settings.CustomErrors) != len(before2.Settings.CustomErrors) {
				t.Fatal("something was written")
			}
		})
	}
	t.Run("label text", func(t *testing.T) {
		ann := w.browser()
		ann.login("ann", testPassword)
		a := w.assign["ann"][0]
		atok := ann.csrf(fmt.Sprintf("/a/%d", a.ID))
		for name, text := range map[string]string{"NUL": "bad\x00", "invalid UTF-8": "bad\xff\xfe", "too long": strings.Repeat("x", 10001)} {
			cur := must(w.store.AssignmentByID(w.ctx, a.ID))(t)
			p := ann.post(fmt.Sprintf("/a/%d/s/%d", a.ID, w.sentences[a.SummaryID][0]), url.Values{"_csrf": {atok}, "label": {"unfaithful"},
				"error_types": {"contradiction"}, "explanation": {text}, "version": {strconv.Itoa(cur.Version)}})
			if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "explanation") {
				t.Errorf("%s explanation: status %d, want 422 naming the explanation", name, p.status)
			}
			if ls := must(w.store.SentenceLabels(w.ctx, a.ID))(t); ls[w.sentences[a.SummaryID][0]].Explanation != "" {
				t.Errorf("%s explanation stored", name)
			}
		}
	})
}

func customTypes(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "t%d|Type %d|\n", i, i)
	}
	return b.String()
}

// TestRoundsPageDealsOnlyAnnotators: a crafted Rounds form naming the
// lead as an annotator is refused, saying why, and writes no round (the
// form lists annotators only; the rule is the same operation's as the
// API's and the command line's).
func TestRoundsPageDealsOnlyAnnotators(t *testing.T) {
	w := newWorkFixture(t)
	lead := w.browser()
	lead.login("lea", testPassword)
	lea := must(w.store.UserByName(w.ctx, "lea"))(t)
	before := must(w.store.Rounds(w.ctx, w.project.ID))(t)
	tok := lead.csrf("/p/alpha/rounds")
	p := lead.post("/p/alpha/rounds", url.Values{"_csrf": {tok}, "name": {"r9"}, "kind": {"calibration"},
		"annotators": {strconv.FormatInt(lea.ID, 10), strconv.FormatInt(w.assign["ann"][0].UserID, 10)}})
	if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "&#34;lea&#34; is a lead of this project, not an annotator") {
		t.Fatalf("status %d:\n%s", p.status, p.body)
	}
	if after := must(w.store.Rounds(w.ctx, w.project.ID))(t); len(after) != len(before) {
		t.Fatal("a refused round was written")
	}
}
