package web_test

import (
	"database/sql"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/PuerkitoBio/goquery"
)

// adjFixture is the work fixture with summary s1 labelled and submitted by
// ann and bob: they agree that sentence 1 is faithful and split on
// sentence 2 (ann: unfaithful, contradiction; bob: faithful).
type adjFixture struct {
	*workFixture
	sum   int64
	sents []int64
}

func newAdjFixture(t *testing.T) *adjFixture {
	t.Helper()
	w := newWorkFixture(t)
	f := &adjFixture{workFixture: w, sum: w.assign["ann"][0].SummaryID}
	f.sents = w.sentences[f.sum]
	f.submit(t, "ann", f.sum, faithfulLabel(), domain.SentenceLabel{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"},
		Explanation: "The document says five to two.", Ambiguous: ptrTo(false), UnsureNote: "Close call"})
	f.submit(t, "bob", f.sum, faithfulLabel(), faithfulLabel())
	return f
}

func ptrTo[T any](v T) *T { return &v }

func faithfulLabel() domain.SentenceLabel {
	return domain.SentenceLabel{Label: domain.LabelFaithful, Ambiguous: ptrTo(false)}
}

// submit saves a user's labels on every sentence of their assignment of a
// summary in any open round, with the summary label, and submits it.
func (f *adjFixture) submit(t *testing.T, user string, summary int64, labels ...domain.SentenceLabel) {
	t.Helper()
	u, err := f.store.UserByName(f.ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	q, err := f.store.Queue(f.ctx, f.project.ID, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range q {
		if a.SummaryID != summary || a.Status == domain.StatusSubmitted {
			continue
		}
		v := a.Version
		for i, l := range labels {
			l.SentenceID = f.sentences[summary][i]
			if v, err = f.store.SaveSentenceLabel(f.ctx, a.ID, u.ID, v, l); err != nil {
				t.Fatalf("%s sentence %d: %v", user, i+1, err)
			}
		}
		if _, err := f.store.SaveSummaryLabel(f.ctx, a.ID, u.ID, v, domain.SummaryLabel{Relevance: 5, TopicCategory: "main"}); err != nil {
			t.Fatal(err)
		}
		if err := f.store.Submit(f.ctx, a.ID, u.ID); err != nil {
			t.Fatalf("submit %s: %v", user, err)
		}
		return
	}
	t.Fatalf("%s has no open assignment of summary %d", user, summary)
}

func (f *adjFixture) pagePath() string { return fmt.Sprintf("/p/alpha/adjudication/s/%d", f.sum) }

func (f *adjFixture) goldPath(i int) string {
	return fmt.Sprintf("%s/gold/%d", f.pagePath(), f.sents[i])
}

func (f *adjFixture) version(t *testing.T, i int) string {
	t.Helper()
	v, err := f.store.GoldVersions(f.ctx, f.sum)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v[f.sents[i]])
}

// htmxPost posts a form as htmx does, with the CSRF token in the header.
func (b *browser) htmxPost(path, token string, form url.Values) page {
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", token)
	req.Header.Set("HX-Request", "true")
	return b.do(req)
}

// testText returns the text of the first element with the test id, tags
// stripped and spaces collapsed; elements of the same name nested in it
// are followed to its own end tag.
func (p page) testText(id string) string {
	start := regexp.MustCompile(`<(\w+)[^>]*data-testid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindStringSubmatchIndex(p.body)
	if start == nil {
		return ""
	}
	name := p.body[start[2]:start[3]]
	tags := regexp.MustCompile(`<(/?)` + name + `\b[^>]*>`)
	rest := p.body[start[1]:]
	depth, end := 1, len(rest)
	for _, m := range tags.FindAllStringSubmatchIndex(rest, -1) {
		if rest[m[2]:m[3]] == "/" {
			depth--
		} else {
			depth++
		}
		if depth == 0 {
			end = m[0]
			break
		}
	}
	inner := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(rest[:end], " ")
	return strings.Join(strings.Fields(html.UnescapeString(inner)), " ")
}

func TestAdjudicationQueue(t *testing.T) {
	f := newAdjFixture(t)
	lea := f.as("lea")
	// Opening the queue resolves the summary that became ready.
	p := lea.get("/p/alpha/adjudication")
	if p.status != http.StatusOK {
		t.Fatalf("queue: %d", p.status)
	}
	if got := p.testText("n-unanimous"); got != "1" {
		t.Errorf("unanimous count %q, want 1", got)
	}
	if got := p.testText("n-pending"); got != "1" {
		t.Errorf("pending count %q, want 1", got)
	}
	if rows := p.mustFind(t, tid("adj-queue")+" tbody tr"); rows.Length() != 1 || rows.AttrOr("data-testid", "") != "item-1" {
		t.Fatalf("the queue should hold exactly sentence 2: %q", texts(rows))
	}
	want := fmt.Sprintf("/p/alpha/adjudication/s/%d#s-%d", f.sum, f.sents[1])
	if got := p.mustFind(t, tid("item-1")+" "+tid("adjudicate-link")).AttrOr("href", ""); got != want {
		t.Fatalf("queue links the sentence to %q, want %q", got, want)
	}
	// A 1:1 split has no strict majority to accept.
	p.noneIn(t, tid("gold-counts"), tid("accept-majority"))
	for _, tc := range []struct {
		query string
		items bool
	}{
		{"?dim=label", true},
		{"?dim=error_types", false}, // only ann chose error types
		{"?dim=ambiguity", false},
		{"?dim=bogus", true},
		{"?round=99999", true}, // an unknown round is ignored
	} {
		t.Run(tc.query, func(t *testing.T) {
			p := lea.get("/p/alpha/adjudication" + tc.query)
			p.mustFind(t, tid("queue-count"))
			if shown := p.has(t, "#main "+tid("item-1")); p.status != http.StatusOK || shown != tc.items {
				t.Fatalf("status %d, item shown %v, want %v", p.status, shown, tc.items)
			}
		})
	}
}

func TestAdjudicationAccess(t *testing.T) {
	f := newAdjFixture(t)
	ada := f.user("ada", false)
	if err := f.store.SetMember(f.ctx, f.project.ID, ada.ID, domain.RoleAdjudicator); err != nil {
		t.Fatal(err)
	}
	oscar := f.user("oscar", false)
	beta := f.fixture.project("beta", map[*domain.User]string{oscar: domain.RoleLead})
	if _, err := f.store.Import(f.ctx, beta.ID, []domain.DocumentInput{{ExternalID: "b", Sentences: []string{"A."},
		Summaries: []domain.SummaryInput{{ExternalID: "bs", Sentences: []domain.SentenceInput{{Text: "A."}}}}}}); err != nil {
		t.Fatal(err)
	}
	betaSums := must(f.store.SummaryIDs(f.ctx, beta.ID, nil))(t)
	cases := []struct {
		user, path string
		want       int
	}{
		{"ada", "/p/alpha/adjudication", http.StatusOK},
		{"ada", f.pagePath(), http.StatusOK},
		{"ann", f.pagePath(), http.StatusForbidden},
		{"eve", f.pagePath(), http.StatusNotFound},
		{"oscar", f.pagePath(), http.StatusNotFound},
		// A summary of another project under this project's URL.
		{"lea", fmt.Sprintf("/p/alpha/adjudication/s/%d", betaSums[0]), http.StatusNotFound},
		{"lea", "/p/alpha/adjudication/s/abc", http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.user+" "+tc.path, func(t *testing.T) {
			if p := f.as(tc.user).get(tc.path); p.status != tc.want {
				t.Fatalf("status %d, want %d", p.status, tc.want)
			}
		})
	}
	t.Run("the project page links the queue for adjudicators only", func(t *testing.T) {
		if p := f.as("ada").get("/p/alpha"); p.status != http.StatusOK || !p.testID("adjudication-link") {
			t.Errorf("adjudicator: status %d, link shown %v", p.status, p.testID("adjudication-link"))
		}
		p := f.as("ann").get("/p/alpha")
		if p.status != http.StatusOK {
			t.Fatalf("annotator: status %d", p.status)
		}
		p.noneIn(t, "#main", tid("adjudication-link"))
	})
	t.Run("ada decides", func(t *testing.T) {
		b := f.as("ada")
		tok := b.csrf(f.pagePath())
		p := b.htmxPost(f.goldPath(1), tok, url.Values{"label": {"faithful"}, "ambiguous": {"no"}, "version": {f.version(t, 1)}})
		if p.status != http.StatusOK || p.testText("provenance-2") != "adjudicated" {
			t.Fatalf("status %d, provenance %q", p.status, p.testText("provenance-2"))
		}
	})
}

func TestAdjudicationPage(t *testing.T) {
	f := newAdjFixture(t)
	lea := f.as("lea")
	lea.get("/p/alpha/adjudication") // resolve
	p := lea.get(f.pagePath())
	if p.status != http.StatusOK {
		t.Fatalf("page: %d", p.status)
	}
	p.textIn(t, tid("votes-2"), "The document says five to two.", "Close call", "Contradiction")
	p.textIn(t, tid("document"), "The council approved the park budget.")
	// The model name is nowhere in the response, markup included.
	p.mustFind(t, tid("summary"))
	if strings.Contains(p.body, "secret-model-name") {
		t.Fatal("the page names the summary's model")
	}
	if p.has(t, tid("adjudication")+" script") || strings.Contains(p.body, "<script>alert(1)") {
		t.Fatal("summary text is not escaped")
	}
	if got := p.testText("provenance-1"); got != "unanimous" {
		t.Errorf("sentence 1 provenance %q, want unanimous", got)
	}
	if got := p.testText("provenance-2"); got != "unresolved" {
		t.Errorf("sentence 2 provenance %q, want unresolved", got)
	}
	if got := voters(t, p, 2); !slices.Equal(got, []string{"ann", "bob"}) {
		t.Fatalf("annotator names on sentence 2: %q, want ann and bob", got)
	}
	if got := p.testText("suggestion-2"); !strings.Contains(got, "no strict majority") {
		t.Errorf("suggestion for a 1:1 split: %q", got)
	}

	t.Run("anonymised", func(t *testing.T) {
		if !strings.Contains(lea.get("/p/alpha/settings").body, `name="anonymous_adjudication"`) {
			t.Fatal("the settings page has no switch for anonymous adjudication")
		}
		set := f.project.Settings
		set.AnonymousAdjudication = true
		if err := f.store.UpdateSettings(f.ctx, f.project.ID, set, ""); err != nil {
			t.Fatal(err)
		}
		defer f.store.UpdateSettings(f.ctx, f.project.ID, f.project.Settings, "")
		p := lea.get(f.pagePath())
		// No vote table on the page names them.
		p.absentIn(t, tid("adjudication")+" table.votes", "ann", "bob")
		aliases, err := f.store.Pseudonyms(f.ctx, f.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := voters(t, p, 2), []string{aliases.Username("ann"), aliases.Username("bob")}; !slices.Equal(got, want) {
			t.Fatalf("stand-in names on sentence 2: %q, want %q", got, want)
		}
	})
}

func TestSetGoldThroughThePage(t *testing.T) {
	f := newAdjFixture(t)
	lea := f.as("lea")
	lea.get("/p/alpha/adjudication")
	tok := lea.csrf(f.pagePath())
	history := func() int {
		h, err := f.store.GoldHistory(f.ctx, f.project.ID, f.sum, 100)
		if err != nil {
			t.Fatal(err)
		}
		return len(h)
	}
	before := history()

	t.Run("invalid decisions name the field and write nothing", func(t *testing.T) {
		for name, tc := range map[string]struct {
			form url.Values
			msg  string
		}{
			"no label":      {url.Values{}, "faithfulness label"},
			"no error type": {url.Values{"label": {"unfaithful"}}, "error type"},
			"no amb. type":  {url.Values{"label": {"faithful"}, "ambiguous": {"yes"}}, "ambiguity type"},
			"bad ambiguous": {url.Values{"label": {"faithful"}, "ambiguous": {"maybe"}}, "ambiguous"},
			"no version":    {url.Values{"label": {"faithful"}, "version": {""}}, "version"},
		} {
			t.Run(name, func(t *testing.T) {
				if _, ok := tc.form["version"]; !ok {
					tc.form.Set("version", f.version(t, 1))
				}
				p := lea.htmxPost(f.goldPath(1), tok, tc.form)
				if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.testText("gold-error"), tc.msg) {
					t.Fatalf("status %d, error %q; want 422 naming %q", p.status, p.testText("gold-error"), tc.msg)
				}
				if n := history(); n != before {
					t.Fatalf("a refused decision wrote %d history entries", n-before)
				}
			})
		}
	})

	stale := f.version(t, 1)
	form := url.Values{"label": {"unfaithful"}, "error_types": {"contradiction", "reasoning_error"}, "ambiguous": {"no"},
		"note": {"Five to two is not unanimous."}, "version": {stale}}
	p := lea.htmxPost(f.goldPath(1), tok, form)
	if p.status != http.StatusOK {
		t.Fatalf("set gold: %d %s", p.status, p.testText("gold-error"))
	}
	if got := p.testText("provenance-2"); got != "adjudicated" {
		t.Fatalf("provenance after deciding %q", got)
	}
	if got := p.testText("gold-label-2"); got != "unfaithful" {
		t.Fatalf("gold label %q", got)
	}
	for _, oob := range []string{`[id^="gmark-"]`, "#summary-gold", "#gold-history"} {
		if p.find(t, oob+`[hx-swap-oob]`).Length() == 0 {
			t.Errorf("response lacks the out-of-band %s", oob)
		}
	}
	if !strings.Contains(p.body, "Five to two is not unanimous.") || !strings.Contains(p.testText("summary-gold"), "unfaithful (adjudicated)") {
		t.Fatalf("note or summary gold missing: %q", p.testText("summary-gold"))
	}
	g := must(f.store.SummaryGold(f.ctx, f.sum))(t)
	if got := g[f.sents[1]]; got.Provenance != domain.ProvAdjudicated || strings.Join(got.ErrorTypes, ",") != "contradiction,reasoning_error" || got.DecidedByName != "lea" {
		t.Fatalf("stored gold %+v", got)
	}

	t.Run("a stale version is a conflict", func(t *testing.T) {
		form.Set("label", "faithful")
		p := lea.htmxPost(f.goldPath(1), tok, form)
		if p.status != http.StatusConflict || !strings.Contains(p.testText("gold-error"), "someone else decided") {
			t.Fatalf("status %d, message %q", p.status, p.testText("gold-error"))
		}
		// The card shows the recorded gold and keeps what was sent.
		if p.testText("gold-label-2") != "unfaithful" || p.find(t, tid("gold-form-2")+` input[name="label"][value="faithful"][checked]`).Length() != 1 {
			t.Fatal("conflict card lost the recorded gold or the values sent")
		}
	})

	t.Run("plain form posts redirect back to the sentence", func(t *testing.T) {
		form := url.Values{"_csrf": {tok}, "label": {"faithful"}, "ambiguous": {"no"}, "version": {f.version(t, 1)}}
		p := lea.post(f.goldPath(1), form)
		want := fmt.Sprintf("%s#s-%d", f.pagePath(), f.sents[1])
		if p.status != http.StatusSeeOther || p.header.Get("Location") != want {
			t.Fatalf("status %d to %q, want 303 to %q", p.status, p.header.Get("Location"), want)
		}
		// Without htmx a refusal is the whole page with the card's message.
		p = lea.post(f.goldPath(1), form)
		if p.status != http.StatusConflict || !p.testID("adjudication") || !p.testID("gold-error") {
			t.Fatalf("stale plain post: status %d", p.status)
		}
	})

	t.Run("reopen sends the sentence back to the queue", func(t *testing.T) {
		path := fmt.Sprintf("%s/reopen/%d", f.pagePath(), f.sents[0])
		p := lea.htmxPost(path, tok, url.Values{"version": {f.version(t, 0)}, "reopen_note": {"Check the date"}})
		if p.status != http.StatusOK || p.testText("provenance-1") != "unresolved" {
			t.Fatalf("reopen: status %d, provenance %q", p.status, p.testText("provenance-1"))
		}
		q := lea.get("/p/alpha/adjudication")
		if got := texts(q.mustFind(t, tid("adj-queue")+" "+tid("item-1")+" .badge")); !slices.Contains(got, "reopened") {
			t.Fatalf("the reopened sentence is not in the queue marked reopened: %q", got)
		}
		// Reopening twice is refused.
		p = lea.htmxPost(path, tok, url.Values{"version": {f.version(t, 0)}})
		if p.status != http.StatusConflict {
			t.Fatalf("second reopen: %d", p.status)
		}
		lea.get(f.pagePath()).textIn(t, tid("gold-history"), "Check the date")
	})

	t.Run("a sentence of another summary is not found", func(t *testing.T) {
		other := f.sentences[f.assign["ann"][1].SummaryID][0]
		p := lea.htmxPost(fmt.Sprintf("%s/gold/%d", f.pagePath(), other), tok, url.Values{"label": {"faithful"}, "version": {"0"}})
		if p.status != http.StatusNotFound {
			t.Fatalf("status %d", p.status)
		}
	})
}

// TestAdjudicationKeepsRawLabels checks that nothing adjudication does
// (resolution, majorities, decisions, reopening) changes a byte of the
// annotators' labels or their history.
func TestAdjudicationKeepsRawLabels(t *testing.T) {
	f := newAdjFixture(t)
	r2 := splitRound(t, f)
	other := f.assign["ann"][1].SummaryID
	before := rawLabels(t, f.store.Path())

	lea := f.as("lea")
	tok := lea.csrf("/p/alpha/adjudication")
	if p := lea.post("/p/alpha/adjudication/resolve", url.Values{"_csrf": {tok}, "round": {fmt.Sprint(r2.ID)}}); p.status != http.StatusSeeOther {
		t.Fatalf("resolve round: %d", p.status)
	}
	q := lea.get("/p/alpha/adjudication")
	if !q.testID("accept-majority") {
		t.Fatal("2:1 splits offer no majority to accept")
	}
	if p := lea.post("/p/alpha/adjudication/majority", url.Values{"_csrf": {tok}, "round": {fmt.Sprint(r2.ID)}}); p.status != http.StatusSeeOther {
		t.Fatalf("accept majority: %d", p.status)
	}
	lea.get("/p/alpha/adjudication").textIn(t, tid("flash"), "Accepted the majority for 2 sentences of round r2.")
	g := must(f.store.SummaryGold(f.ctx, other))(t)
	if g[f.sentences[other][0]].Provenance != domain.ProvMajority || g[f.sentences[other][1]].Label != domain.LabelUnfaithful {
		t.Fatalf("gold after accepting majorities: %+v", g)
	}
	if p := lea.post("/p/alpha/adjudication/majority", url.Values{"_csrf": {tok}, "round": {"x"}}); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "round:") {
		t.Fatalf("bad round: %d", p.status)
	}
	if p := lea.htmxPost(f.goldPath(1), tok, url.Values{"label": {"faithful"}, "ambiguous": {"no"}, "version": {f.version(t, 1)}}); p.status != http.StatusOK {
		t.Fatalf("set gold: %d", p.status)
	}
	if p := lea.htmxPost(fmt.Sprintf("%s/reopen/%d", f.pagePath(), f.sents[0]), tok, url.Values{"version": {f.version(t, 0)}}); p.status != http.StatusOK {
		t.Fatalf("reopen: %d", p.status)
	}
	if p := lea.post("/p/alpha/adjudication/resolve", url.Values{"_csrf": {tok}}); p.status != http.StatusSeeOther {
		t.Fatalf("resolve ready: %d", p.status)
	}
	h := must(f.store.GoldHistory(f.ctx, f.project.ID, 0, 100))(t)
	if len(h) < 6 {
		t.Fatalf("only %d gold changes: the adjudication did not happen", len(h))
	}
	if after := rawLabels(t, f.store.Path()); after != before {
		t.Fatalf("annotator labels changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// rawLabels dumps every annotator label and label-history row of the
// database, column by column, in id order.
func rawLabels(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	for _, table := range []string{"sentence_labels", "sentence_label_history", "summary_labels"} {
		rows, err := db.Query(`SELECT * FROM ` + table + ` ORDER BY rowid`)
		if err != nil {
			t.Fatal(err)
		}
		cols := must(rows.Columns())(t)
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		n := 0
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %q\n", table, vals)
			n++
		}
		rows.Close()
		if n == 0 && table != "summary_labels" {
			t.Fatalf("no rows in %s: the comparison would prove nothing", table)
		}
	}
	return b.String()
}

// voters returns, sorted, the names heading the vote rows of a sentence
// on the adjudication page, without the round that follows each.
func voters(t *testing.T, p page, sentence int) []string {
	t.Helper()
	var names []string
	p.mustFind(t, tid(fmt.Sprintf("votes-%d", sentence))+" "+tid("vote")+` th[scope="row"]`).Each(func(_ int, th *goquery.Selection) {
		th = th.Clone()
		th.Find("span").Remove()
		names = append(names, textOf(th))
	})
	slices.Sort(names)
	return names
}
